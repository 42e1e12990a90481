import { describe, expect, it } from 'vitest';
import { checkFetchTarget, describeRefusal } from '../../../src/services/input/address-guard';
import { apiErrorOf } from './helpers';

function refusal(url: string, allowHttp = false) {
  const error = apiErrorOf(() => checkFetchTarget(new URL(url), { allowHttp }));
  expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
  return error.message;
}

describe('checkFetchTarget: schemes and credentials', () => {
  it('refuses plain http unless allowHttp is set', () => {
    expect(refusal('http://example.com/doc.pdf')).toContain('uses plain http:');
    expect(refusal('http://example.com/doc.pdf')).toContain('ALLOW_HTTP_URLS=true');
    expect(() => checkFetchTarget(new URL('http://example.com/doc.pdf'), { allowHttp: true })).not.toThrow();
  });

  it('refuses http://127.0.0.1/x for its scheme, and for loopback even when http is allowed', () => {
    expect(refusal('http://127.0.0.1/x')).toContain('uses plain http:');
    expect(refusal('http://127.0.0.1/x', true)).toBe(
      'document.url points to a loopback address (127.0.0.1); only public http and https URLs are fetched.',
    );
  });

  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'data:text/plain,hello',
    'javascript:alert(1)',
    'ws://example.com/',
  ])('always refuses %s', (url) => {
    expect(refusal(url)).toMatch(/uses the [a-z]+: scheme, which is never fetched/);
    expect(refusal(url, true)).toMatch(/uses the [a-z]+: scheme, which is never fetched/);
  });

  it('refuses credentials in the URL without repeating them', () => {
    const message = refusal('https://user:pw@example.com/');
    expect(message).toContain('contains a user name or password');
    expect(message).not.toContain('pw');
    expect(refusal('https://user@example.com/')).toContain('contains a user name or password');
  });
});

describe('checkFetchTarget: IP literals', () => {
  it.each([
    ['https://127.0.0.1/x', 'a loopback address (127.0.0.1)'],
    ['https://10.0.0.1/x', 'a private network address (10.0.0.1)'],
    ['https://172.16.5.4/', 'a private network address (172.16.5.4)'],
    ['https://192.168.1.1/', 'a private network address (192.168.1.1)'],
    ['https://169.254.169.254/latest/meta-data', 'a link-local address (169.254.169.254), where cloud metadata'],
    ['https://0.0.0.0/', 'an unspecified address (0.0.0.0)'],
    ['https://100.64.0.1/', 'a carrier-grade NAT address (100.64.0.1)'],
    ['https://224.0.0.1/', 'a multicast address (224.0.0.1)'],
    ['https://255.255.255.255/', 'the broadcast address (255.255.255.255)'],
    ['https://192.0.2.10/', 'a reserved or documentation address (192.0.2.10)'],
    ['https://240.0.0.1/', 'a reserved or documentation address (240.0.0.1)'],
    ['https://198.18.0.1/', 'a reserved or documentation address (198.18.0.1)'],
  ])('refuses %s', (url, reason) => {
    expect(refusal(url)).toContain(`document.url points to ${reason}`);
  });

  it.each([
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://127.1/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://0xa000001/', '10.0.0.1'],
  ])('refuses %s, which the URL parser spells %s', (url, address) => {
    expect(new URL(url).hostname).toBe(address);
    expect(refusal(url)).toContain(`(${address})`);
  });

  it.each([
    ['https://[::1]/x', 'a loopback address ([::1])'],
    ['https://[::]/', 'the unspecified address ([::])'],
    ['https://[fe80::1]/', 'a link-local address ([fe80::1])'],
    ['https://[fd00::1]/', 'a unique local address ([fd00::1])'],
    ['https://[fc00::5]/', 'a unique local address ([fc00::5])'],
    ['https://[ff02::1]/', 'a multicast address ([ff02::1])'],
    ['https://[fec0::1]/', 'a site-local address ([fec0::1])'],
    ['https://[2001:db8::1]/', 'a reserved or documentation address ([2001:db8::1])'],
    ['https://[::ffff:127.0.0.1]/', 'an IPv4-mapped IPv6 address ([::ffff:7f00:1]), which embeds an IPv4 address'],
    ['https://[::ffff:8.8.8.8]/', 'an IPv4-mapped IPv6 address'],
    ['https://[64:ff9b::a00:1]/', 'a NAT64 address'],
    ['https://[2002:a00:1::]/', 'a 6to4 address'],
    ['https://[2001:0:4136:e378::1]/', 'a Teredo address'],
    ['https://[::127.0.0.1]/', 'an IPv4-compatible IPv6 address'],
    ['https://[100::1]/', 'a discard-only address'],
    ['https://[4000::1]/', 'an IPv6 address ([4000::1]), outside the global unicast range 2000::/3'],
  ])('refuses %s', (url, reason) => {
    expect(refusal(url)).toContain(`document.url points to ${reason}`);
  });

  it('accepts public unicast addresses', () => {
    for (const url of ['https://93.184.215.14/', 'https://8.8.8.8/doc.pdf', 'https://[2606:4700:4700::1111]/']) {
      expect(() => checkFetchTarget(new URL(url), { allowHttp: false })).not.toThrow();
    }
  });
});

describe('checkFetchTarget: host names', () => {
  it.each([
    ['https://localhost/x', 'points to localhost (localhost), which RFC 6761 reserves'],
    ['https://LOCALHOST./x', 'points to localhost (localhost)'],
    ['https://foo.localhost/', 'points to localhost (foo.localhost)'],
    ['https://printer.local/', 'points to a .local name (printer.local), which is multicast DNS'],
    ['https://metadata.google.internal/', 'points to a .internal name (metadata.google.internal)'],
    ['https://nas.home.arpa/', 'points to a .home.arpa name (nas.home.arpa)'],
    ['https://intranet/', 'points to a single-label host name (intranet)'],
    ['https://intranet./', 'points to a single-label host name (intranet)'],
  ])('refuses %s', (url, reason) => {
    expect(refusal(url)).toContain(`document.url ${reason}`);
  });

  it('accepts ordinary public names', () => {
    for (const url of [
      'https://example.com/',
      'https://example.com./doc.pdf',
      'https://files.example.co.uk:8443/a?b=c',
    ]) {
      expect(() => checkFetchTarget(new URL(url), { allowHttp: false })).not.toThrow();
    }
  });

  it('does not mistake names that merely contain a reserved word', () => {
    for (const url of ['https://localhost.example.com/', 'https://local.example/', 'https://internal.example.org/']) {
      expect(describeRefusal(new URL(url), false)).toBeUndefined();
    }
  });
});

describe('checkFetchTarget: messages', () => {
  it('uses the subject it is given, for redirect hops', () => {
    const error = apiErrorOf(() =>
      checkFetchTarget(new URL('https://10.0.0.1/'), {
        allowHttp: false,
        subject: 'document.url redirected to a URL that',
      }),
    );
    expect(error.message).toBe(
      'document.url redirected to a URL that points to a private network address (10.0.0.1); only public https URLs are fetched.',
    );
  });
});
