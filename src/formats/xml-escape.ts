// XML 1.0 §2.2: these code points may not appear in a document at all, escaped or not.
// eslint-disable-next-line no-control-regex -- the control characters are the point of this pattern
const invalidXmlChars = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const special = /[&<>"']/g;
const entity: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for element content and attribute values alike. */
export function escapeXml(text: string): string {
  return text.replace(invalidXmlChars, '').replace(special, (char) => entity[char] ?? char);
}
