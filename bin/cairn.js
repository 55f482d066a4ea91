#!/usr/bin/env node
// The `cairn` command: loads the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
