import { startTelemetry } from '@felt/platform/telemetry';

startTelemetry('persister');
