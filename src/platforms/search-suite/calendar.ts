import { GoogleCalendarEvents } from './calendar-events.js';
import { google, refreshGoogle, revokeGoogle } from './client.js';
import type { SearchSuiteSettings } from './settings.js';
import type { About, AdapterAccount, Credentials, PlatformAdapter } from '../types.js';

/** `calendar`: the search suite's calendar, connected with search_suite (`include=calendar`); same tokens. */
export class CalendarAdapter implements PlatformAdapter {
  readonly id = 'calendar' as const;
  readonly lacks = { insights: 'calendar accounts are calendars: they have no audience or figures.' };

  /** Events of the account's calendars: its own and those shared with it. */
  readonly calendarEvents: GoogleCalendarEvents;

  constructor(private readonly endpoints: SearchSuiteSettings) {
    this.calendarEvents = new GoogleCalendarEvents(endpoints.calendarApiUrl);
  }

  readonly refresh = (credentials: Credentials) => refreshGoogle(this.endpoints, credentials);

  /** The grant it shares with the suite's locations: revokeAtPlatform leaves it while one of them is connected. */
  async revoke(account: AdapterAccount): Promise<void> {
    await revokeGoogle(this.endpoints.revokeUrl, account.credentials);
  }

  async about(account: AdapterAccount): Promise<About> {
    const calendar = await google<{ id: string; summary?: string; description?: string; timeZone?: string } & Record<string, unknown>>(
      `${this.endpoints.calendarApiUrl}/users/me/calendarList/${encodeURIComponent(account.platformAccountId)}`,
      account.credentials.accessToken,
    );
    return {
      platformAccountId: calendar.id,
      name: calendar.summary ?? calendar.id,
      username: null,
      bio: calendar.description ?? null,
      url: null,
      pictureUrl: null,
      category: 'calendar',
      followersCount: null,
      followingCount: null,
      postsCount: null,
      verified: null,
      platformData: calendar,
    };
  }
}
