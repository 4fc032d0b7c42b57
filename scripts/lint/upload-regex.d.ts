// Types of scripts/lint/upload-regex.js for the test that proves the rule (tests/build/upload-regex-rule.test.ts).
export declare const UPLOAD_MAIN_THREAD_FILES: string[];
export declare const UPLOAD_MAIN_THREAD_IGNORES: string[];
declare const plugin: { rules: Record<string, unknown> };
export default plugin;
