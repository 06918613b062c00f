/** A command failure with its own exit status (2: the command was used wrongly), not the usual 1. */
export class ExitError extends Error {
  override readonly name = 'ExitError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
