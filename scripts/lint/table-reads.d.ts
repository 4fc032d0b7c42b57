// Types of table-reads.js for the tests that import it (tsc: no implicit any).
export declare const TABLE_READS: Record<string, string[]>;
export declare const READS_TO_MOVE: Record<string, string[]>;
export declare function mayImportTable(feature: string, owner: string, table: string): boolean;
