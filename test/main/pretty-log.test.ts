import { PassThrough } from 'node:stream';
import t from 'tap';
import { createLogger, logFormatOf } from '../../src/main/logger.js';
import { formatLine } from '../../src/main/pretty-log.js';

t.test('the log format: FEEDMILL_LOG_FORMAT, else pretty on a terminal and JSON elsewhere', async (t) => {
  t.equal(logFormatOf({ logFormat: undefined }, { isTTY: true }), 'pretty');
  t.equal(logFormatOf({ logFormat: undefined }, { isTTY: false }), 'json');
  t.equal(logFormatOf({ logFormat: undefined }, {}), 'json');
  t.equal(logFormatOf({ logFormat: 'json' }, { isTTY: true }), 'json');
  t.equal(logFormatOf({ logFormat: 'pretty' }, { isTTY: false }), 'pretty');
});

t.test('a pretty line: time, level, message, then the fields as key=value', async (t) => {
  const line = JSON.stringify({
    level: 40,
    time: Date.UTC(2026, 10, 25, 1, 2, 3, 45),
    pid: 1,
    hostname: 'h',
    msg: 'cannot reach Redis',
    address: '10.0.0.1:6379',
    tries: 2,
    reason: 'connect ECONNREFUSED',
  });
  t.equal(formatLine(line, false), '01:02:03.045 WARN  cannot reach Redis  address=10.0.0.1:6379 tries=2 reason="connect ECONNREFUSED"');
  t.equal(formatLine('not json', false), 'not json', 'anything else passes through');
  const error = formatLine(
    JSON.stringify({ level: 50, time: 0, msg: 'failed', err: { message: 'boom', stack: 'Error: boom\n    at x' } }),
    false,
  );
  t.match(error, /^00:00:00\.000 ERROR failed {2}err=boom\n {4}Error: boom\n/, 'an error shows its message, then its stack indented');
  t.ok(formatLine(line, true).includes('\u001b[33mWARN'), 'colours when asked for');
});

t.test('the logger writes pretty lines to a stream that asked for them, and JSON otherwise', async (t) => {
  const collect = (format: 'pretty' | 'json'): string => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    createLogger({ logLevel: 'info', logFormat: format }, out as unknown as NodeJS.WriteStream).info({ role: 'all' }, 'started');
    return text;
  };
  t.match(collect('pretty'), /^\d\d:\d\d:\d\d\.\d{3} INFO {2}started {2}role=all\n$/);
  t.match(JSON.parse(collect('json')) as object, { level: 30, msg: 'started', role: 'all' });
});
