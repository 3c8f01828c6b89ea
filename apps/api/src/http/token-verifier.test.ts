import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWTVerifyGetKey } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InvalidTokenError, MissingEmailClaimError, jwtTokenVerifier } from './auth';

const ISSUER = 'https://idp.test/oidc';
const AUDIENCE = 'https://idp.test/api';

/** A verified access token reused for a few seconds (main.ts: 5 s) without letting anything through that verify refuses. */
describe('access tokens verified once and reused', () => {
  let sign: (expiresInSeconds: number, claims?: Record<string, unknown>) => Promise<string>;
  let keys: JWTVerifyGetKey;
  /** How many times the verifier asked for a key: once per signature it checked. */
  let lookups = 0;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] });
    keys = (header, token) => {
      lookups += 1;
      return jwks(header, token);
    };
    sign = (expiresInSeconds, claims = {}) =>
      new SignJWT({ email: 'cartera@demo.mx', ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('cartera')
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
        .sign(privateKey);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  const verifier = (reuseMs: number) => jwtTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, requireAtJwt: true, reuseMs });

  it('checks the signature of a token once within the reuse time, and again after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const token = await sign(3600);
    const verify = verifier(5_000);
    lookups = 0;
    expect(await verify.verify(token)).toMatchObject({ subject: 'cartera', email: 'cartera@demo.mx' });
    expect(await verify.verify(token)).toMatchObject({ subject: 'cartera', email: 'cartera@demo.mx' });
    expect(lookups).toBe(1);
    vi.advanceTimersByTime(5_001);
    await verify.verify(token);
    expect(lookups).toBe(2);
  });

  it('refuses a reused token once it has expired, whatever the reuse time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const token = await sign(2);
    const verify = verifier(60_000);
    await verify.verify(token);
    vi.advanceTimersByTime(3_000);
    await expect(verify.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('checks on its own a token with the same claims and another signature', async () => {
    const token = await sign(3600);
    const verify = verifier(60_000);
    await verify.verify(token);
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature!.slice(0, -4)}${signature!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    await expect(verify.verify(forged)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('refuses a token whose provider says the e-mail is not verified, and takes one it says is or says nothing of', async () => {
    await expect(verifier(0).verify(await sign(60, { email_verified: false }))).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(verifier(0).verify(await sign(60, { email_verified: true }))).resolves.toMatchObject({
      subject: 'cartera',
      email: 'cartera@demo.mx',
    });
    await expect(verifier(0).verify(await sign(60))).resolves.toMatchObject({ subject: 'cartera', email: 'cartera@demo.mx' });
  });

  it('tells a signed token without the e-mail claim apart, naming the claim it looked for', async () => {
    await expect(verifier(0).verify(await sign(60, { email: undefined }))).rejects.toEqual(new MissingEmailClaimError('email'));
    const upn = jwtTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, emailClaim: 'upn' });
    await expect(upn.verify(await sign(60))).rejects.toMatchObject({ claim: 'upn' });
    await expect(upn.verify(await sign(60, { upn: 'cartera@demo.mx' }))).resolves.toMatchObject({
      subject: 'cartera',
      email: 'cartera@demo.mx',
    });
  });

  it('checks every time without a reuse time', async () => {
    const token = await sign(3600);
    const verify = verifier(0);
    lookups = 0;
    await verify.verify(token);
    await verify.verify(token);
    expect(lookups).toBe(2);
  });
});
