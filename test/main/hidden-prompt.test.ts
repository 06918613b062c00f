import { PassThrough } from 'node:stream';
import t from 'tap';
import { promptHidden } from '../../src/main/hidden-prompt.js';

function terminal() {
  const input = new PassThrough();
  const modes: boolean[] = [];
  let shown = '';
  const output = new PassThrough();
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  return { input: Object.assign(input, { setRawMode: (mode: boolean) => modes.push(mode) }), output, modes, shown: () => shown };
}

t.test('each prompt reads one line; backspace edits it; raw mode is on while typing and off after', async (t) => {
  const io = terminal();
  const answers = promptHidden(['Password: ', 'Repeat password: '], io.input, io.output);
  // One chunk holding both lines, a backspace, a \r\n and a multi-byte character.
  io.input.write('secret!\u007f one\r\nséc\r');
  t.same(await answers, ['secret one', 'séc']);
  t.same(io.modes, [true, false]);
  t.equal(io.shown(), 'Password: \nRepeat password: \n', 'only the prompts are shown');
});

t.test('Ctrl-C and the end of input reject, and leave raw mode', async (t) => {
  const cancelled = terminal();
  const first = promptHidden(['Password: '], cancelled.input, cancelled.output);
  cancelled.input.write('abc\u0003');
  await t.rejects(first, /cancelled/);
  t.same(cancelled.modes, [true, false]);
  const ended = terminal();
  const second = promptHidden(['Password: '], ended.input, ended.output);
  ended.input.end('abc');
  await t.rejects(second, /input ended/);
  t.same(ended.modes, [true, false]);
});
