import { startTelemetry } from '@felt/platform/telemetry';

startTelemetry('table-worker');
