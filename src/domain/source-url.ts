import { fieldRefusal } from './errors.js';
import { expectedMessage, type Subject } from './field-message.js';

export const maxUrlLength = 2048;

/**
 * The one rule for an address feedmill will request: an absolute `http:` or `https:` URL without
 * credentials, or, given `base`, a reference resolved against it (a redirect's Location).
 * Anything else is `invalid_url`, in a message naming `subject` (the field a person filled in, or
 * in words what the fetcher was given). WHATWG parsing also normalises the odd IPv4 spellings
 * (`0x7f000001`, `2130706433`) to dotted quads, which the address rule then sees.
 */
export function parseWebUrl(raw: string, subject: Subject, base?: URL): URL {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw fieldRefusal(subject, expectedMessage(subject, 'an absolute http or https URL', { value: text }), 'invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fieldRefusal(subject, expectedMessage(subject, 'an http or https URL', { said: `a \`${url.protocol}\` URL` }), 'invalid_url');
  }
  if (url.username !== '' || url.password !== '') {
    // The credentials stay out of the message.
    throw fieldRefusal(
      subject,
      expectedMessage(
        subject,
        'a URL without a user name or password',
        { said: 'one with credentials' },
        'feedmill does not send credentials in a URL',
      ),
      'invalid_url',
    );
  }
  return url;
}

/**
 * A URL a person gives (a feed source, a webhook target, a WebSub callback) in the field
 * `subject`: a web URL (parseWebUrl) of at most `maxUrlLength` characters.
 */
export function parseSourceUrl(raw: string, subject: Subject = 'url'): URL {
  const text = raw.trim();
  if (text.length > maxUrlLength) {
    throw fieldRefusal(
      subject,
      expectedMessage(subject, `a URL of at most ${maxUrlLength} characters`, { said: `${text.length} characters` }),
      'invalid_url',
    );
  }
  return parseWebUrl(text, subject);
}
