#!/usr/bin/env node
import { main } from '../dist/cli/felt-sim.js';

process.exitCode = main(process.argv.slice(2));
