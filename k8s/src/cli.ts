// `npm run validate -w @felt/k8s [dir]`: the same offline checks as the test, for the example overlay or
// your copy of it, printing one line per finding.
import { resolve } from 'node:path';
import { renderDeployment, validateRendered } from './index.js';

const dir = process.argv[2];
const findings = await validateRendered(renderDeployment(dir === undefined ? undefined : resolve(dir)));
for (const f of findings) console.log(`${f.source} ${f.object}: ${f.message}`);
console.log(findings.length === 0 ? 'manifests OK' : `${findings.length} finding(s)`);
process.exitCode = findings.length === 0 ? 0 : 1;
