// Types of scripts/vite-web-contracts.mjs for vite.config.ts (decision 34-04).
import type { Plugin } from 'vite';

export declare function webContracts(): Plugin;
