import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';

// Discovery says which format each candidate is; the parser knows it from the root it read.
t.test("a feed's format is the vocabulary of its root", async (t) => {
  const url = 'https://example.com/feed';
  const formats: [string, string][] = [
    ['<rss version="2.0"><channel><title>a</title></channel></rss>', 'rss'],
    [
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>a</title></channel></rdf:RDF>',
      'rdf',
    ],
    ['<feed xmlns="http://www.w3.org/2005/Atom"><title>a</title></feed>', 'atom'],
    ['<entry xmlns="http://www.w3.org/2005/Atom"><title>a</title><id>urn:a</id></entry>', 'atom'],
    ['{"version":"https://jsonfeed.org/version/1.1","title":"a","items":[]}', 'json_feed'],
  ];
  for (const [body, format] of formats) t.equal(parseFeed(body, { url }).format, format, format);
});
