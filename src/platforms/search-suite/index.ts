import { definePlatform } from '../platform-module.js';
import { SearchSuiteAdapter } from './adapter.js';
import { CalendarAdapter } from './calendar.js';
import { searchSuiteSettings } from './settings.js';

/** The business profiles and the calendar: one OAuth app, one grant (`include=calendar`). */
export const searchSuite = definePlatform({
  ids: ['search_suite', 'calendar'],
  settings: searchSuiteSettings,
  create: (settings) => [new SearchSuiteAdapter(settings), new CalendarAdapter(settings)],
});
