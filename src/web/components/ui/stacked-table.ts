/**
 * A table that becomes a stack of labelled blocks below the medium breakpoint (issue 37: on a
 * phone a table in a sideways-scrolling box hid its right-hand columns). The header row stays for
 * screen readers; each cell shows its column's name from its `data-label`. The pattern of the staff
 * orders table, shared.
 */
export const STACKED_HEAD = 'max-md:sr-only';
export const STACKED_ROW = 'max-md:block max-md:py-2';
export const STACKED_CELL =
  'max-md:flex max-md:items-start max-md:gap-3 max-md:px-0 max-md:py-1.5 max-md:before:w-24 max-md:before:shrink-0 max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)] max-md:text-left';
