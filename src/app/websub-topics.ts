import { isBundleId } from '../domain/ids.js';
import type { WebsubTopic } from '../domain/websub.js';
import type { AppDeps } from './deps.js';
import { hostedFormats } from '../formats/hosted-formats.js';
import type { HostedFeedRenderer } from './hosted-feed.js';

/** A topic's document as its hosted address serves it: the bytes and their `Content-Type`. */
export interface TopicDocument {
  body: Buffer;
  contentType: string;
}

/** Renders a topic in its format; undefined when the feed or bundle is gone, or the format is not served. */
export type TopicRenderer = (topic: WebsubTopic) => Promise<TopicDocument | undefined>;

/** The hub's view of the hosted renderer: the topic's format, with the type its hosted address serves. */
export function topicRendererOf(render: HostedFeedRenderer): TopicRenderer {
  return async (topic) => {
    const document = await render(topic.id, topic.format);
    // The Content-Type the hosted route serves (src/http/routes/hosted.ts): websub.rocks compares them.
    return document && { body: document.body, contentType: `${hostedFormats[topic.format].mediaType}; charset=utf-8` };
  };
}

/** The account that owns a topic's feed or bundle; undefined when it does not exist (or was deleted). */
export async function topicOwner(deps: Pick<AppDeps, 'feeds' | 'bundles'>, topic: WebsubTopic): Promise<string | undefined> {
  const owner = isBundleId(topic.id) ? await deps.bundles.getById(topic.id) : await deps.feeds.getById(topic.id);
  return owner?.accountId;
}
