import { expect } from 'chai';
import { loadConfig } from '../../src/config.js';
import { unreachableFromInternet } from '../../src/lib/public-url.js';
import { warnOfUnreachablePublicUrl } from '../../src/platforms/public-url-check.js';

describe('PUBLIC_URL — whether the platforms on the internet can reach it', () => {
  it('judges loopback, private ranges, local names and http where HTTPS is wanted unreachable', () => {
    expect(unreachableFromInternet('http://localhost:8080', { https: false })).to.match(/localhost/);
    expect(unreachableFromInternet('http://127.0.0.1:8080', { https: false })).to.match(/loopback/);
    expect(unreachableFromInternet('https://10.1.2.3', { https: true })).to.match(/private/);
    expect(unreachableFromInternet('https://[::1]:8443', { https: true })).to.match(/loopback/);
    expect(unreachableFromInternet('https://socialgate:8080', { https: true })).to.match(/local network/);
    expect(unreachableFromInternet('https://box.internal', { https: true })).to.match(/box\.internal/);
    expect(unreachableFromInternet('http://social.example.com', { https: true })).to.match(/not HTTPS/);
    expect(unreachableFromInternet('http://social.example.com', { https: false })).to.equal(null);
    expect(unreachableFromInternet('https://social.example.com', { https: true })).to.equal(null);
  });

  it('is said at start when a real platform is configured, naming PUBLIC_URL; not with the sandbox alone', () => {
    const said: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const logger = { warn: (fields: Record<string, unknown>, message: string) => void said.push({ fields, message }) };
    warnOfUnreachablePublicUrl(loadConfig({ PUBLIC_URL: 'http://localhost:8080' }), logger as never);
    expect(said).to.deep.equal([]);
    const real = loadConfig({ PUBLIC_URL: 'http://localhost:8080', BOTCHAT_API_URL: 'https://api.telegram.org' });
    warnOfUnreachablePublicUrl(real, logger as never);
    expect(said).to.have.length(1);
    expect(said[0]!.message).to.match(/^PUBLIC_URL is not reachable from the internet \(localhost/);
    expect(said[0]!.fields).to.deep.include({ publicUrl: 'http://localhost:8080', platforms: ['botchat'] });
    said.length = 0;
    warnOfUnreachablePublicUrl(
      loadConfig({ PUBLIC_URL: 'https://social.example.com', BOTCHAT_API_URL: 'https://api.telegram.org' }),
      logger as never,
    );
    expect(said).to.deep.equal([]);
  });

  it('is not said for a platform the operator runs on this machine or its network, which reaches PUBLIC_URL as the sandbox does', () => {
    const said: string[] = [];
    const logger = { warn: (_fields: unknown, message: string) => void said.push(message) };
    warnOfUnreachablePublicUrl(
      loadConfig({ PUBLIC_URL: 'http://localhost:8080', BOTCHAT_API_URL: 'http://127.0.0.1:8081/botchat' }),
      logger as never,
    );
    warnOfUnreachablePublicUrl(loadConfig({ PUBLIC_URL: 'http://localhost:8080', BOTCHAT_API_URL: 'https://bots.lan' }), logger as never);
    expect(said).to.deep.equal([]);
  });
});
