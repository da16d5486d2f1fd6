#!/usr/bin/env node
import '../dist/cli/felt.js';
