// `npm run validate -w @felt/k8s [dir]`: the same offline checks as the test, for an edited base or overlay
// copy, printing one line per finding.
import { renderBase, validateRendered } from './index.js';

const findings = await validateRendered(renderBase(process.argv[2]));
for (const f of findings) console.log(`${f.source} ${f.object}: ${f.message}`);
console.log(findings.length === 0 ? 'manifests OK' : `${findings.length} finding(s)`);
process.exitCode = findings.length === 0 ? 0 : 1;
