// Preloaded with `node --import ./dist/telemetry.js dist/main.js`, before node:http is imported,
// so the HTTP instrumentation sees the server.
import { startTelemetry } from '@felt/platform/telemetry';

startTelemetry('lobby');
