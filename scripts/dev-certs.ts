// Certificates for the gRPC link's mutual TLS on one machine: `npm start` and the test harness make a
// private CA and two leaves with it. Production takes them from cert-manager instead (k8s/overlays/
// example/grpc-certificates.yaml); the shapes match: the worker's certificate serves and is a client
// (the in-pod drain), the gateway's is a client only.
import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

/** The files of one side, in the variables the services read. */
export interface SideFiles {
  readonly FELT_GRPC_TLS_CA: string;
  readonly FELT_GRPC_TLS_CERT: string;
  readonly FELT_GRPC_TLS_KEY: string;
}

export interface DevCertificates {
  readonly dir: string;
  readonly worker: SideFiles;
  readonly gateway: SideFiles;
}

const DAY_MS = 86_400_000;
/** Local certificates last a year; they are made again when less than a week is left. */
const VALID_DAYS = 365;
const RENEW_WITHIN_MS = 7 * DAY_MS;

interface Issued {
  readonly certPem: string;
  readonly keyPem: string;
}

function keyPair(): { pub: forge.pki.PublicKey; priv: forge.pki.rsa.PrivateKey; pem: string } {
  // Node generates the key (native, fast); forge only builds and signs the certificates.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const priv = forge.pki.privateKeyFromPem(pem);
  const pub = forge.pki.setRsaPublicKey(priv.n, priv.e);
  return { pub, priv, pem };
}

function certificate(
  subject: string,
  pub: forge.pki.PublicKey,
  signer: forge.pki.rsa.PrivateKey,
  issuer: forge.pki.CertificateField[] | null,
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = pub;
  // A positive serial of 16 random bytes (the top bit cleared).
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + VALID_DAYS * DAY_MS);
  const name = [{ name: 'commonName', value: subject }];
  cert.setSubject(name);
  cert.setIssuer(issuer ?? name);
  cert.setExtensions(extensions);
  cert.sign(signer, forge.md.sha256.create());
  return cert;
}

function makeCa(): Issued & { cert: forge.pki.Certificate; priv: forge.pki.rsa.PrivateKey } {
  const k = keyPair();
  const cert = certificate('felt-dev-grpc-ca', k.pub, k.priv, null, [
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  return { cert, priv: k.priv, certPem: forge.pki.certificateToPem(cert), keyPem: k.pem };
}

function makeLeaf(
  ca: { cert: forge.pki.Certificate; priv: forge.pki.rsa.PrivateKey },
  subject: string,
  usage: { serverAuth: boolean; clientAuth: boolean },
): Issued {
  const k = keyPair();
  const cert = certificate(subject, k.pub, ca.priv, ca.cert.subject.attributes, [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', ...usage },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  return { certPem: forge.pki.certificateToPem(cert), keyPem: k.pem };
}

function filesIn(dir: string) {
  return {
    ca: join(dir, 'ca.crt'),
    workerCert: join(dir, 'worker.crt'),
    workerKey: join(dir, 'worker.key'),
    gatewayCert: join(dir, 'gateway.crt'),
    gatewayKey: join(dir, 'gateway.key'),
  };
}

function certificatesIn(dir: string): DevCertificates {
  const f = filesIn(dir);
  return {
    dir,
    worker: { FELT_GRPC_TLS_CA: f.ca, FELT_GRPC_TLS_CERT: f.workerCert, FELT_GRPC_TLS_KEY: f.workerKey },
    gateway: { FELT_GRPC_TLS_CA: f.ca, FELT_GRPC_TLS_CERT: f.gatewayCert, FELT_GRPC_TLS_KEY: f.gatewayKey },
  };
}

/** Whether `dir` holds a full set that chains to its CA and is good for more than a week. */
function usable(dir: string): boolean {
  const f = filesIn(dir);
  if (!Object.values(f).every((p) => existsSync(p))) return false;
  try {
    const ca = new X509Certificate(readFileSync(f.ca));
    for (const p of [f.ca, f.workerCert, f.gatewayCert]) {
      const c = new X509Certificate(readFileSync(p));
      if (new Date(c.validTo).getTime() - Date.now() < RENEW_WITHIN_MS) return false;
      if (p !== f.ca && !c.verify(ca.publicKey)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A private CA and the worker's and gateway's certificates in `dir` (made when missing, broken or
 * about to expire; kept otherwise, so a restart keeps its files). Keys are readable by the owner only.
 */
export function ensureDevCertificates(dir: string): DevCertificates {
  if (usable(dir)) return certificatesIn(dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const f = filesIn(dir);
  const ca = makeCa();
  const worker = makeLeaf(ca, 'felt-table-worker', { serverAuth: true, clientAuth: true });
  const gateway = makeLeaf(ca, 'felt-gateway', { serverAuth: false, clientAuth: true });
  // Keys first, the CA last: a set interrupted half-way is not `usable` and is made again.
  writeFileSync(f.workerKey, worker.keyPem, { mode: 0o600 });
  writeFileSync(f.gatewayKey, gateway.keyPem, { mode: 0o600 });
  writeFileSync(f.workerCert, worker.certPem);
  writeFileSync(f.gatewayCert, gateway.certPem);
  writeFileSync(f.ca, ca.certPem);
  return certificatesIn(dir);
}

/**
 * A certificate and key signed by a CA of its own, which no Felt process trusts: what an outsider
 * with "some" certificate presents (tests).
 */
export function strangerCertificate(dir: string): SideFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = makeCa();
  const leaf = makeLeaf(ca, 'stranger', { serverAuth: true, clientAuth: true });
  const out = { ca: join(dir, 'stranger-ca.crt'), cert: join(dir, 'stranger.crt'), key: join(dir, 'stranger.key') };
  writeFileSync(out.ca, ca.certPem);
  writeFileSync(out.cert, leaf.certPem);
  writeFileSync(out.key, leaf.keyPem, { mode: 0o600 });
  return { FELT_GRPC_TLS_CA: out.ca, FELT_GRPC_TLS_CERT: out.cert, FELT_GRPC_TLS_KEY: out.key };
}
