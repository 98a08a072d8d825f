import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';

const SRC = new URL('../../src/', import.meta.url);

/**
 * src/config.ts, what it reads before the rest of the service loads (the database's and the log's settings, read
 * at start while PostgreSQL starts), and every area's and platform's settings.ts: the files that read settings.
 */
function settingsFiles(): URL[] {
  const nested = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((path) => /(^|\/)settings\.ts$/.test(path));
  return ['config.ts', 'db/open.ts', 'lib/logger.ts', ...nested].map((path) => new URL(path, SRC));
}

/** Every variable the settings files name: `env.NAME` and the names handed to their parsers and helpers. */
function variablesNamed(): string[] {
  const names = new Set<string>();
  for (const file of settingsFiles()) {
    const source = readFileSync(file, 'utf8');
    const named = /\benv\.([A-Z][A-Z0-9_]*)\b|\b(?:int|intList|bool)\('([A-Z][A-Z0-9_]*)'|'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g;
    for (const match of source.matchAll(named)) names.add((match[1] ?? match[2] ?? match[3])!);
  }
  return [...names];
}

describe('loadConfig(env)', () => {
  it('reads every value, numbers included, from its argument and never from process.env', () => {
    const names = variablesNamed();
    expect(names).to.include.members([
      'PORT',
      'RATE_LIMIT_PER_MINUTE',
      'WEBHOOK_RETRY_SCHEDULE',
      'TRUST_PROXY',
      'DATABASE_URL',
      'BOTCHAT_API_URL',
      'SOCIAL_NETWORK_APP_SECRET',
      'QRCHAT_DRIVER',
    ]);
    const clean = loadConfig({});
    const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
    try {
      // Values every parser accepts, and that differ from every default.
      for (const name of names)
        process.env[name] =
          name === 'TRUST_PROXY'
            ? 'true'
            : name === 'SOCIALGATE_ROLE'
              ? 'worker'
              : name === 'MEDIA_STORAGE'
                ? 'local'
                : name === 'QRCHAT_DRIVER'
                  ? 'baileys'
                  : '7';
      expect(loadConfig({})).to.deep.equal(clean);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('takes numbers, lists and flags from its argument', () => {
    const config = loadConfig({
      PORT: '9001',
      RATE_LIMIT_PER_MINUTE: '5',
      WEBHOOK_RETRY_SCHEDULE: '1, 2,3',
      WEBHOOK_CONCURRENCY: '0',
      TRUST_PROXY: 'true',
    });
    expect(config.port).to.equal(9001);
    expect(config.publicUrl).to.equal('http://localhost:9001');
    expect(config.rateLimit.points).to.equal(5);
    expect(config.webhooks.retryScheduleSeconds).to.deep.equal([1, 2, 3]);
    expect(config.webhooks.concurrency).to.equal(0);
    expect(config.trustProxy).to.equal(true);
    expect(loadConfig({}).trustProxy).to.equal(false);
    expect(loadConfig({}).publishing.minScheduleAheadSeconds).to.equal(0);
    expect(loadConfig({ PUBLISH_MIN_SCHEDULE_AHEAD_SECONDS: '5' }).publishing.minScheduleAheadSeconds).to.equal(5);
  });

  it('refuses values that are not what they should be, naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).to.throw(/PORT/);
    expect(() => loadConfig({ SESSION_TTL_SECONDS: '-1' })).to.throw(/SESSION_TTL_SECONDS/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,soon' })).to.throw(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).to.throw(/TRUST_PROXY/);
  });

  it("reads each platform's settings with its module: configured, or what would configure it", () => {
    const config = loadConfig({ BOTCHAT_API_URL: 'https://bots.example/', SOCIAL_NETWORK_API_VERSION: 'v26.0' });
    expect(config.platforms.botchat).to.deep.equal({ configured: true, settings: { apiUrl: 'https://bots.example' } });
    expect(config.platforms.social_network).to.deep.equal({
      configured: false,
      partial: { version: 'v26.0' },
      needs: 'set SOCIAL_NETWORK_APP_ID and SOCIAL_NETWORK_APP_SECRET',
    });
  });

  it('refuses a platform configured by halves, naming the variable that is missing', () => {
    expect(() => loadConfig({ SOCIAL_NETWORK_APP_ID: '1234' })).to.throw(
      /^SOCIAL_NETWORK_APP_SECRET must be set with SOCIAL_NETWORK_APP_ID/,
    );
    expect(() => loadConfig({ SEARCH_SUITE_CLIENT_SECRET: 'secret' })).to.throw(/^SEARCH_SUITE_CLIENT_ID must be set/);
    expect(() => loadConfig({ QRCHAT_DRIVER: 'baileys' })).to.throw(/QRCHAT_DRIVER "baileys" is not available/);
  });
});
