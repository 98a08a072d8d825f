import type { AiModelSettings, AiProviderSettings } from '../../modules/ai/settings.js';

/** The key the sandbox provider expects, as a real provider expects its own. */
export const SANDBOX_AI_KEY = 'sandbox-ai-key';

/**
 * The sandbox provider's models: named and described as what they are (deterministic stand-ins made on this
 * machine), with the parameter values a real provider of each kind takes (gpt-image's three sizes, a video
 * gateway's fixed lengths and sizes, a speech model's voices and formats).
 */
export const SANDBOX_MODELS: AiModelSettings[] = [
  {
    id: 'sandbox-copy',
    kind: 'copy',
    name: 'Sandbox copy (deterministic text, not a real model)',
    default: true,
    maxPromptChars: 4000,
    maxVariants: 4,
  },
  {
    id: 'sandbox-image',
    kind: 'image',
    name: 'Sandbox image (generated pattern, not a real model)',
    default: true,
    maxPromptChars: 4000,
    sizes: { '1:1': '1024x1024', '3:2': '1536x1024', '2:3': '1024x1536' },
    referenceImage: true,
  },
  {
    id: 'sandbox-video',
    kind: 'video',
    name: 'Sandbox video (test pattern, not a real model)',
    default: true,
    maxPromptChars: 4000,
    sizes: { '9:16': '720x1280', '16:9': '1280x720' },
    durations: [4, 8, 12],
  },
  {
    id: 'sandbox-speech',
    kind: 'audio',
    name: 'Sandbox speech (tones, not a real voice)',
    default: true,
    maxPromptChars: 4096,
    voices: ['alloy', 'ash', 'coral', 'sage', 'verse'],
    formats: ['mp3', 'wav'],
  },
];

/** The provider the service uses when its operator configured none: this sandbox. */
export function sandboxAiProvider(sandboxUrl: string): AiProviderSettings {
  return {
    name: 'sandbox',
    protocol: 'openai',
    baseUrl: `${sandboxUrl}/ai/v1`,
    apiKey: SANDBOX_AI_KEY,
    sandbox: true,
    models: SANDBOX_MODELS,
  };
}
