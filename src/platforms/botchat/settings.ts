import { baseUrl, configured, type SettingsRead, unconfigured } from '../settings.js';

export interface BotchatSettings {
  /** The bot API's base URL, e.g. https://api.telegram.org. */
  apiUrl: string;
}

export function botchatSettings(env: NodeJS.ProcessEnv): SettingsRead<BotchatSettings> {
  const apiUrl = baseUrl(env.BOTCHAT_API_URL);
  return apiUrl ? configured({ apiUrl }) : unconfigured('set BOTCHAT_API_URL');
}
