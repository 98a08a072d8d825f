import type { components } from '../../../generated/api.js';
import type { FieldError } from '../../lib/errors.js';
import { orList } from '../../lib/or-list.js';
import { AiModelUnavailableError } from './errors.js';
import type { AiKind, AiModelSettings } from './settings.js';

type Schemas = components['schemas'];
export type AiModelParameters = Schemas['AiModelParameters'];

/** The aspect ratios the contract lets a request ask for, per kind. */
const CONTRACT_RATIOS: Partial<Record<AiKind, string[]>> = {
  image: ['1:1', '4:5', '9:16', '16:9', '1.91:1'],
  video: ['9:16', '16:9', '1:1'],
};

function ratioOf(text: string): number {
  const [width, height] = text.split(/[:x]/).map(Number) as [number, number];
  return width / height;
}

export interface Size {
  width: number;
  height: number;
}

function parseSize(size: string): Size {
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
}

/** A size the provider makes that has exactly this ratio. */
function nativeSize(model: AiModelSettings, ratio: string): string | undefined {
  return Object.values(model.sizes ?? {}).find((size) => Math.abs(ratioOf(size) - ratioOf(ratio)) < 0.01);
}

/** Where an aspect ratio comes from: a size the provider makes, and (for a ratio it does not make) the crop of it. */
export interface Shape {
  size: string;
  crop: Size | null;
}

/**
 * How a model gives each ratio of the contract: natively (a size it makes), or, for images, by cropping the
 * size it makes whose ratio is nearest. Videos are never cropped.
 */
export function shapes(model: AiModelSettings): Map<string, Shape> {
  const result = new Map<string, Shape>();
  const sizes = Object.values(model.sizes ?? {});
  for (const ratio of CONTRACT_RATIOS[model.kind] ?? []) {
    const native = nativeSize(model, ratio);
    if (native) {
      result.set(ratio, { size: native, crop: null });
    } else if (model.kind === 'image' && sizes.length > 0) {
      const nearest = [...sizes].sort((a, b) => Math.abs(ratioOf(a) - ratioOf(ratio)) - Math.abs(ratioOf(b) - ratioOf(ratio)))[0]!;
      const { width, height } = parseSize(nearest);
      const wanted = ratioOf(ratio);
      const crop = width / height > wanted ? { width: Math.round(height * wanted), height } : { width, height: Math.round(width / wanted) };
      result.set(ratio, { size: nearest, crop });
    }
  }
  return result;
}

/** The members a model takes beyond `prompt`. */
export function inputsOf(model: AiModelSettings): string[] {
  switch (model.kind) {
    case 'copy':
      return ['platform', 'tone', 'language', 'maxLength', 'includeHashtags', ...(model.maxVariants && model.maxVariants > 1 ? ['n'] : [])];
    case 'image':
      return ['aspectRatio', 'negativePrompt', ...(model.referenceImage ? ['imageMediaId'] : [])];
    case 'video':
      return ['aspectRatio', 'durationSeconds', ...(model.referenceImage ? ['imageMediaId'] : [])];
    case 'audio':
      return ['voice', 'format'];
  }
}

/** The values each parameter of a model takes, as `GET /ai/models` publishes them. */
export function parametersOf(model: AiModelSettings): AiModelParameters {
  const byRatio = shapes(model);
  const ratios = [...byRatio.keys()];
  return {
    maxPromptChars: model.maxPromptChars ?? 4000,
    n: model.kind === 'copy' ? { max: model.maxVariants ?? 1 } : null,
    aspectRatio: byRatio.size
      ? {
          values: ratios,
          native: ratios.filter((ratio) => !byRatio.get(ratio)!.crop),
          cropped: ratios.filter((ratio) => byRatio.get(ratio)!.crop),
        }
      : null,
    durationSeconds: model.kind === 'video' ? { values: model.durations ?? [] } : null,
    voice: model.kind === 'audio' ? { values: model.voices ?? [] } : null,
    format: model.kind === 'audio' ? { values: model.formats ?? [] } : null,
    referenceImage: Boolean(model.referenceImage),
  };
}

/** The members of any generate request that choose among a model's values. */
export interface PlanInput {
  prompt?: string;
  n?: number;
  aspectRatio?: string;
  durationSeconds?: number;
  voice?: string;
  format?: string;
  imageMediaId?: string;
}

/** What the worker asks the provider for, settled when the task is accepted. */
export interface Plan {
  n?: number;
  size?: string;
  crop?: Size | null;
  seconds?: number;
  voice?: string;
  format?: string;
}

function outside(path: string, value: unknown, allowed: ReadonlyArray<string | number>): FieldError {
  return {
    path: `body/${path}`,
    code: 'enum',
    message: `${JSON.stringify(value)} is not taken by this model; it takes ${orList(allowed)}.`,
  };
}

/**
 * Checks a request against the values its model takes; every value it does not take is named at once (422
 * `ai_model_unavailable`, with the allowed values). Answers what to ask the provider for.
 */
export function planFor(model: AiModelSettings, input: PlanInput): Plan {
  const errors: FieldError[] = [];
  const maxPrompt = model.maxPromptChars ?? 4000;
  if (input.prompt && input.prompt.length > maxPrompt) {
    errors.push({
      path: 'body/prompt',
      code: 'maxLength',
      message: `has ${input.prompt.length} characters; ${model.id} takes at most ${maxPrompt}.`,
    });
  }
  if (input.imageMediaId && !model.referenceImage) {
    errors.push({ path: 'body/imageMediaId', code: 'not_supported', message: `${model.id} does not start from a reference image.` });
  }
  const plan: Plan = {};
  if (model.kind === 'copy') {
    plan.n = input.n ?? 1;
    const max = model.maxVariants ?? 1;
    if (plan.n > max)
      errors.push({ path: 'body/n', code: 'maximum', message: `${model.id} writes at most ${max} variant${max === 1 ? '' : 's'}.` });
  }
  if (model.kind === 'image' || model.kind === 'video') {
    const byRatio = shapes(model);
    const ratio = input.aspectRatio ?? (model.kind === 'image' ? '1:1' : '9:16');
    const shape = byRatio.get(ratio);
    if (!shape) errors.push(outside('aspectRatio', ratio, [...byRatio.keys()]));
    else Object.assign(plan, { size: shape.size, crop: shape.crop });
  }
  if (model.kind === 'video') {
    const durations = model.durations ?? [];
    plan.seconds = input.durationSeconds ?? durations[0];
    if (plan.seconds === undefined || !durations.includes(plan.seconds)) errors.push(outside('durationSeconds', plan.seconds, durations));
  }
  if (model.kind === 'audio') {
    const voices = model.voices ?? [];
    const formats = model.formats ?? [];
    plan.voice = input.voice ?? voices[0];
    plan.format = input.format ?? 'mp3';
    if (!plan.voice || !voices.includes(plan.voice)) errors.push(outside('voice', plan.voice, voices));
    if (!formats.includes(plan.format)) errors.push(outside('format', plan.format, formats));
    if (input.durationSeconds !== undefined) {
      errors.push({
        path: 'body/durationSeconds',
        code: 'not_supported',
        message: `${model.id} is a speech model: speech lasts as long as its text.`,
      });
    }
  }
  if (errors.length > 0) {
    // The detail alone says what to change: each member with what was wrong and the values the model takes.
    const each = errors.map((error) => `${error.path.replace('body/', '')}: ${error.message}`).join(' ');
    throw new AiModelUnavailableError(`${model.id} does not take this request. ${each} See its parameters in GET /ai/models.`, errors);
  }
  return plan;
}
