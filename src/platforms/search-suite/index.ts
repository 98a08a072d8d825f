import { definePlatform } from '../platform-module.js';
import { SearchSuiteAdapter } from './adapter.js';
import { CalendarAdapter } from './calendar.js';
import { SearchSuiteInsights } from './insights.js';
import { searchSuiteSettings } from './settings.js';

/** The business profiles and the calendar: one OAuth app, one grant (`include=calendar`). */
export const searchSuite = definePlatform({
  ids: ['search_suite', 'calendar'],
  settings: searchSuiteSettings,
  create: (settings) => [
    Object.assign(new SearchSuiteAdapter(settings), { insights: new SearchSuiteInsights(settings.performanceApiUrl) }),
    new CalendarAdapter(settings),
  ],
});
