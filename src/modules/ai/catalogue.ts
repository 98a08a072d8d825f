import type { components } from '../../../generated/api.js';
import type { Services } from '../../services.js';
import { inputsOf, parametersOf } from './parameters.js';
import { registryOf } from './registry.js';
import { AI_KINDS, type AiKind } from './settings.js';

type AiModelList = components['schemas']['AiModelList'];

/** `GET /ai/models`: the models offered now, by kind then name, and each kind's providers or why it has none. */
export async function presentModels(services: Services, kind: AiKind | undefined): Promise<AiModelList> {
  const { models, kinds } = await registryOf(services).catalogue();
  const defaults = new Map<AiKind, string>();
  for (const { model } of models) if (model.default && !defaults.has(model.kind)) defaults.set(model.kind, model.id);
  for (const { model } of models) if (!defaults.has(model.kind)) defaults.set(model.kind, model.id);
  const data = models
    .filter((offered) => !kind || offered.model.kind === kind)
    .sort(
      (a, b) =>
        AI_KINDS.indexOf(a.model.kind) - AI_KINDS.indexOf(b.model.kind) ||
        (a.model.name ?? a.model.id).localeCompare(b.model.name ?? b.model.id),
    )
    .map(({ provider, model, shutdownDate }) => ({
      id: model.id,
      name: model.name ?? model.id,
      provider: provider.name,
      kind: model.kind,
      inputs: inputsOf(model),
      isDefault: defaults.get(model.kind) === model.id,
      sandbox: Boolean(provider.sandbox),
      parameters: parametersOf(model),
      shutdownDate,
    }));
  return { data, kinds: kinds.filter((entry) => !kind || entry.kind === kind), nextCursor: null };
}
