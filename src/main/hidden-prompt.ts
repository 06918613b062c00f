import type { Readable, Writable } from 'node:stream';

/** A terminal's input (process.stdin on a TTY); tests pass a plain stream, which has no raw mode. */
export type PromptInput = Readable & { setRawMode?: (mode: boolean) => unknown };

/**
 * Asks each prompt in turn and reads one line per prompt without echoing it: the terminal is put in
 * raw mode, so nothing typed appears, and backspace is handled here. Prompts go to `output` (stderr),
 * so standard output keeps only results. Ctrl-C or the end of input rejects.
 */
export async function promptHidden(prompts: readonly string[], input: PromptInput, output: Writable): Promise<string[]> {
  const answers: string[] = [];
  let current = '';
  let afterReturn = false;
  input.setEncoding('utf8');
  // Raw before the prompt shows: whatever is typed once it is visible must not be echoed.
  input.setRawMode?.(true);
  output.write(prompts[0] ?? '');
  try {
    await new Promise<void>((resolve, reject) => {
      const finish = (error?: Error): void => {
        input.off('data', onData);
        input.off('end', onEnd);
        input.pause();
        if (error) reject(error);
        else resolve();
      };
      const onEnd = (): void => finish(new Error('the input ended before the password was entered'));
      function onData(chunk: string): void {
        for (const char of chunk) {
          // A terminal sends \r for Enter; a pasted or piped \r\n is one Enter, not two.
          const wasReturn = afterReturn;
          afterReturn = char === '\r';
          if (char === '\n' && wasReturn) continue;
          if (char === '\u0003') return finish(new Error('cancelled'));
          if (char === '\u0004') return finish(new Error('the input ended before the password was entered'));
          if (char === '\r' || char === '\n') {
            answers.push(current);
            current = '';
            output.write('\n');
            if (answers.length === prompts.length) return finish();
            output.write(prompts[answers.length] ?? '');
          } else if (char === '\u007f' || char === '\b') {
            current = [...current].slice(0, -1).join('');
          } else if (char >= ' ') {
            current += char;
          }
        }
      }
      input.on('data', onData);
      input.once('end', onEnd);
      input.resume();
    });
  } finally {
    input.setRawMode?.(false);
  }
  return answers;
}
