#!/usr/bin/env node
import '../dist/cli/felt-sim.js';
