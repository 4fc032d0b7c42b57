// Types of scripts/lint/web-api-urls.js for the test that proves the rule (tests/build/endpoint-contracts.test.ts).
export declare const WEB_CLIENT_LAYER: string[];
declare const plugin: { rules: Record<string, unknown> };
export default plugin;
