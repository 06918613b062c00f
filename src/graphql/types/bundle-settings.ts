import { getBundleSettings, updateBundleSettings, type BundleSettings as Settings } from '../../app/bundles.js';
import { builder } from '../builder.js';
import { parseFiltersJson } from '../filters-json.js';
import { Bundle } from './bundle.js';
import { ItemSort } from './item-sort.js';

/** The REST bundle settings: the default order and the keep/block filters. */
export const BundleSettings = builder.objectRef<Settings>('BundleSettings').implement({
  description: "The bundle's default order and its keep/block filters, applied to the merged items after each member feed's own.",
  fields: (t) => ({
    sort: t.field({ type: ItemSort, description: 'The order used when a request gives none.', resolve: (settings) => settings.sort }),
    filters: t.string({
      description: 'The keep/block filters as JSON `{"keep": filter|null, "block": filter|null}`, as in REST (README "Filters").',
      resolve: (settings) => JSON.stringify(settings.filters),
    }),
  }),
});

builder.objectField(Bundle, 'settings', (t) =>
  t.field({
    type: BundleSettings,
    description: "The bundle's settings.",
    resolve: (bundle, _args, { deps, principal }) => getBundleSettings(deps, principal, bundle.id),
  }),
);

builder.mutationFields((t) => ({
  updateBundleSettings: t.field({
    type: BundleSettings,
    description: '`filters` as JSON, as the REST body carries them: left out keeps them, null removes both.',
    args: {
      bundleId: t.arg.id({ required: true }),
      filters: t.arg.string({ required: false, description: 'Keep/block filters as JSON; null removes both.' }),
    },
    resolve: (_root, args, { deps, principal }) =>
      updateBundleSettings(deps, principal, args.bundleId, 'filters' in args ? { filters: parseFiltersJson(args.filters) ?? null } : {}),
  }),
}));
