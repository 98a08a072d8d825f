import { defineArea } from '../area.js';
import { automateComments, automateMessages } from './engine.js';
import * as handlers from './handlers.js';
import { automationSettings } from './settings.js';
import { RunPerforming } from './worker.js';

export const automations = defineArea({
  name: 'automations',
  contractArea: 'Messaging',
  handlers,
  tables: ['automations', 'automation_runs', 'automation_people'],
  settings: automationSettings,
  // After the messaging and comments areas, which store the message or comment first (areas run in list order).
  incoming: { message: automateMessages, comment: automateComments },
  workers: { automations: (services) => new RunPerforming(services) },
  // A run is performed as soon as it is stored: every open run is due or under way.
  outstanding: { automationRuns: `SELECT count(*) FROM automation_runs WHERE status = 'running'` },
  // A run's log is kept 30 days after it finished; who an automation ran for goes with it.
  purge: async ({ db }) => ({
    automationRuns: await db('automationRuns')
      .whereIn('status', ['succeeded', 'failed'])
      .where('finishedAt', '<', db.raw("now() - interval '30 days'"))
      .delete(),
  }),
});
