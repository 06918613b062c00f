import t from 'tap';
import { errorCodes, isSourceFailure, sourceFailureCodes } from '../../src/domain/errors.js';
import { statusOf } from '../../src/web/status.js';

t.test('a failure of the source is 402, and nothing else is', async (t) => {
  for (const code of errorCodes) t.equal(statusOf[code] === 402, isSourceFailure(code), `${code}: ${statusOf[code]}`);
  t.ok(sourceFailureCodes.length > 0);
});

t.test('every code has a status a client can act on', async (t) => {
  for (const code of errorCodes) t.ok(statusOf[code] >= 400 && statusOf[code] < 600, `${code}: ${statusOf[code]}`);
});
