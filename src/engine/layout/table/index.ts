/**
 * Table layout (front door of src/engine/layout/table): the grid, rows, cell content and pagination
 * of tables across pages (ECMA-376 §17.4).
 */
export type { ContentLine, Slice } from './cell-content';
export { hasCssTables, sizeCssTables } from './css-table-layout';
export { type LaidTable, layoutTableRows, layoutTableSlices, tableRows } from './row-layout';
export { flowTable, RowWindow, type TableFlowTarget } from './table-pagination';
export { offsetLine, type TurnedBox } from './turned-cell';
