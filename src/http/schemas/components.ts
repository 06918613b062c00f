import type { TSchema } from 'typebox';
import {
  BundleItem,
  BundleList,
  Bundle,
  BundleSettings,
  BundleWithItems,
  CreateBundleBody,
  DuplicateCopy,
  UpdateBundleBody,
  UpdateBundleSettingsBody,
} from './bundle.js';
import { DeletionResult, ErrorBody, Health } from './common.js';
import { EventPage } from './events.js';
import { Discovery, FeedCandidate, FollowedCandidate } from './discover.js';
import {
  Author,
  CreateFeedBody,
  Feed,
  FeedItem,
  FeedList,
  FeedSettings,
  FeedStatus,
  FeedPreview,
  FeedWithItems,
  FilterPreview,
  FilterPreviewBody,
  RefreshResult,
  UpdateFeedBody,
  UpdateFeedSettingsBody,
} from './feed.js';
import { FiltersInput, KeepBlock, KeepBlockInput } from './item-filter.js';
import { PageSelectors } from './page-selectors.js';
import { ImportStatus, OpmlDocument, OpmlOutcome } from './opml.js';
import {
  CreateWebhookBody,
  DeliveryAttempt,
  DeliveryList,
  RetryResult,
  UpdateWebhookBody,
  Webhook,
  WebhookList,
  WebhookWithSecret,
} from './webhook.js';
import { WebhookEvent } from './webhook-event.js';
import { SubscriptionForm } from './websub.js';

/**
 * The schemas the OpenAPI document names (`components.schemas`), by name. Routes use the schema
 * objects themselves, so validation and serialization are what they were; openapi.ts replaces each
 * of these objects, wherever a route schema holds it, by a `$ref` to its name.
 */
export const namedSchemas: Record<string, TSchema> = {
  Author,
  FeedItem,
  FeedStatus,
  FollowedCandidate,
  FeedCandidate,
  Discovery,
  Feed,
  FeedWithItems,
  FeedList,
  FeedSettings,
  FeedPreview,
  PageSelectors,
  CreateFeedRequest: CreateFeedBody,
  UpdateFeedRequest: UpdateFeedBody,
  UpdateFeedSettingsRequest: UpdateFeedSettingsBody,
  ItemFilter: FiltersInput,
  KeepBlockFilters: KeepBlock,
  KeepBlockFiltersInput: KeepBlockInput,
  FilterPreviewRequest: FilterPreviewBody,
  FilterPreview,
  RefreshResult,
  Bundle,
  BundleItem,
  DuplicateCopy,
  BundleWithItems,
  BundleList,
  BundleSettings,
  CreateBundleRequest: CreateBundleBody,
  UpdateBundleRequest: UpdateBundleBody,
  UpdateBundleSettingsRequest: UpdateBundleSettingsBody,
  DeletionResult,
  Error: ErrorBody,
  Webhook,
  WebhookWithSecret,
  WebhookList,
  CreateWebhookRequest: CreateWebhookBody,
  UpdateWebhookRequest: UpdateWebhookBody,
  Delivery: DeliveryAttempt,
  DeliveryList,
  RetryResult,
  WebhookEvent,
  EventPage,
  OpmlDocument,
  OpmlImport: ImportStatus,
  OpmlImportOutcome: OpmlOutcome,
  WebsubSubscriptionRequest: SubscriptionForm,
  Health,
};
