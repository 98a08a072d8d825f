import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { usageSettings } from '../usage/support.js';
import { generate, testAiSettings } from './support.js';

describeApi(
  'AI tasks — a hard limit of the plan on generations',
  { settings: { ...testAiSettings(), ...usageSettings({ free: { limits: { aiGenerations: 2 }, hard: ['aiGenerations'] } }) } },
  (t) => {
    it('lets only two of three racing requests start a task this month; the third is 402 plan_limit_reached', async () => {
      const answers = await Promise.all([1, 2, 3].map((i) => generate(t.app, t.owner, 'copy', { prompt: `Announce offer ${i}.` })));
      expect(answers.map((answer) => answer.status).sort()).to.deep.equal([202, 202, 402]);
      const refused = answers.find((answer) => answer.status === 402)!;
      expect(refused.body.code).to.equal('plan_limit_reached');
      expect(refused.body.detail).to.match(/allows 2 aiGenerations per month/);
      const listed = await t.app.api.get('/ai/generations', { token: t.owner.key });
      expect(listed.body.data).to.have.length(2);
    });
  },
);
