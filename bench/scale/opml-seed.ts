import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

/** How an import through `POST /v1/opml` went: each outline is a create (fetch, parse, first items). */
export interface OpmlSeed {
  feeds: number;
  ms: number;
  outcomes: Record<string, number>;
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Imports `urls` as one OPML document and waits until the import is no longer running. */
export async function seedThroughOpml(origin: string, ca: string, authorization: string, urls: readonly string[]): Promise<OpmlSeed> {
  const pool = new Pool(origin, { connections: 1, connect: { ca, servername: 'localhost' } });
  try {
    const outlines = urls.map((url, n) => `<outline type="rss" text="Feed ${n}" xmlUrl="${escapeXml(url)}"/>`).join('\n');
    const body = `<?xml version="1.0"?><opml version="2.0"><head><title>scale</title></head><body>${outlines}</body></opml>`;
    const started = performance.now();
    const posted = await pool.request({
      method: 'POST',
      path: '/v1/opml',
      headers: { authorization, 'content-type': 'application/xml' },
      body,
    });
    const answer = await posted.body.text();
    if (posted.statusCode !== 202) throw new Error(`Expected 202 from POST /v1/opml, got ${posted.statusCode}: ${answer.slice(0, 300)}`);
    const { id } = JSON.parse(answer) as { id: string };
    for (;;) {
      await sleep(500);
      const progress = await pool.request({ method: 'GET', path: `/v1/opml/imports/${id}`, headers: { authorization } });
      const state = (await progress.body.json()) as { status: string; outcomes: { outcome: string }[] };
      if (state.status === 'running') continue;
      const outcomes: Record<string, number> = {};
      for (const outcome of state.outcomes) {
        outcomes[outcome.outcome] = (outcomes[outcome.outcome] ?? 0) + 1;
      }
      return { feeds: urls.length, ms: performance.now() - started, outcomes };
    }
  } finally {
    await pool.close();
  }
}
