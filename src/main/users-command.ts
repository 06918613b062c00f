import type { Readable, Writable } from 'node:stream';
import { checkEmail, checkNewUser, createUser, deleteUser, listUsers, resetPassword } from '../app/users.js';
import type { Config } from './config.js';
import { ExitError } from './exit-error.js';
import { promptHidden, type PromptInput } from './hidden-prompt.js';
import { openStores } from './stores.js';
import { parseSubcommand } from './subcommand-args.js';

const usage =
  'usage: feedmill users create --account NAME --email EMAIL [--password-stdin] | users list [--json] | users reset-password EMAIL [--password-stdin] | users delete EMAIL';

export interface UsersCommandIo {
  print(line: string): void;
  /** Where a password comes from: typed at the terminal, or piped with --password-stdin. */
  input: PromptInput & { isTTY?: boolean };
  /** Where prompts go (stderr), so standard output holds only results. */
  prompts: Writable;
}

async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  // `printf %s "$PASSWORD"` and `echo "$PASSWORD"` both work: one final line break is not part of it.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The password: all of stdin with --password-stdin, else typed twice at the terminal without echo. */
async function password(io: UsersCommandIo, fromStdin: boolean): Promise<string> {
  if (fromStdin) return readAll(io.input);
  if (!io.input.isTTY) {
    throw new ExitError('standard input is not a terminal, so the password cannot be prompted for: pipe it in with --password-stdin', 2);
  }
  const [first, second] = await promptHidden(['Password: ', 'Repeat password: '], io.input, io.prompts);
  if (first !== second) throw new Error('the two passwords differ; nothing was changed');
  return first ?? '';
}

/** `feedmill users …`: the people who sign in to the dashboard. Passwords are stored as scrypt hashes only. */
export async function usersCommand(args: string[], config: Config, io: UsersCommandIo): Promise<void> {
  const parsed = parseSubcommand(
    args,
    {
      account: { type: 'string' },
      email: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    usage,
  );
  if (parsed === null) {
    io.print(usage);
    return;
  }
  const { action, values, positionals } = parsed;
  const clock = { now: () => new Date() };
  // The store opens after the password is read: a person typing holds no connection.
  const withStore = async <T>(run: (stores: Awaited<ReturnType<typeof openStores>>) => Promise<T>): Promise<T> => {
    const store = await openStores(config);
    try {
      return await run(store);
    } finally {
      await store.close();
    }
  };
  if (action === 'create') {
    if (!values.account || !values.email) throw new ExitError(`--account and --email are required; ${usage}`, 2);
    // Checked before the prompt: nobody types a password twice to learn the email was wrong.
    const input = checkNewUser({ account: values.account, email: values.email });
    const secret = await password(io, values['password-stdin']);
    const user = await withStore((store) => createUser({ users: store.users, clock }, { ...input, password: secret }));
    io.print(`Created user ${user.email} in account ${user.accountId}; they sign in to the dashboard with this email and password.`);
  } else if (action === 'list') {
    const users = await withStore((store) => listUsers(store));
    if (values.json) io.print(JSON.stringify(users));
    else for (const user of users) io.print(`${user.email}  account=${user.accountId}  created=${user.createdAt}`);
  } else if (action === 'reset-password') {
    const email = positionals[0];
    if (!email) throw new ExitError(`the email is required; ${usage}`, 2);
    const address = checkEmail(email);
    const secret = await password(io, values['password-stdin']);
    await withStore((store) => resetPassword({ users: store.users, clock }, address, secret));
    io.print(`Set a new password for ${address}; every session they had has ended.`);
  } else if (action === 'delete') {
    const email = positionals[0];
    if (!email) throw new ExitError(`the email is required; ${usage}`, 2);
    await withStore((store) => deleteUser(store, email));
    io.print(`Deleted user ${checkEmail(email)}.`);
  } else {
    throw new ExitError(usage, 2);
  }
}
