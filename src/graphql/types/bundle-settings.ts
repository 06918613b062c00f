import { getBundleSettings, updateBundleSettings, type BundleSettings as Settings } from '../../app/bundles.js';
import { builder } from '../builder.js';
import { Bundle, bundleOf } from './bundle.js';
import { KeepBlock, KeepBlockInput, keepBlockFromInput } from './item-filter.js';
import { ItemSort } from './item-sort.js';

/** The REST bundle settings: the default order and the keep/block filters. */
export const BundleSettings = builder.objectRef<Settings>('BundleSettings').implement({
  description: "The bundle's default order and its keep/block filters, applied to the merged items after each member feed's own.",
  fields: (t) => ({
    sort: t.field({ type: ItemSort, description: 'The order used when a request gives none.', resolve: (settings) => settings.sort }),
    filters: t.field({
      type: KeepBlock,
      description: 'What the bundle shows and hides of its merged items (docs/filters.md).',
      resolve: (settings) => settings.filters,
    }),
  }),
});

builder.objectField(Bundle, 'settings', (t) =>
  t.field({
    type: BundleSettings,
    description: "The bundle's settings.",
    resolve: (node, _args, { deps, principal }) => getBundleSettings(deps, principal, bundleOf(node).id),
  }),
);

const UpdateBundleSettingsInput = builder.inputType('UpdateBundleSettingsInput', {
  description: 'What `updateBundleSettings` changes; a field left out keeps its value.',
  fields: (t) => ({
    filters: t.field({
      type: KeepBlockInput,
      required: false,
      description: 'Keep/block filters; null removes both, and in the object a rule left out is kept, null removes it.',
    }),
  }),
});

builder.mutationFields((t) => ({
  updateBundleSettings: t.field({
    type: BundleSettings,
    description: "Changes the bundle's keep/block filters; they judge its merged items after each member feed's own.",
    args: {
      bundleId: t.arg.id({ required: true, description: 'The bundle whose settings change.' }),
      input: t.arg({ type: UpdateBundleSettingsInput, required: true, description: 'The new values.' }),
    },
    resolve: (_root, { bundleId, input }, { deps, principal }) =>
      updateBundleSettings(deps, principal, bundleId, { filters: keepBlockFromInput(input) }),
  }),
}));
