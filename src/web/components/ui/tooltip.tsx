import { cloneElement, createContext, useContext, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { cn } from '#web/lib/utils';

/** Tooltips open after 700 ms; moving between them within 300 ms opens the next at once (spec). */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/**
 * A small tooltip of our own instead of Radix's: the shell shows one on every page, and Radix's
 * positioning engine (floating-ui) would put about 20 KB of gzipped JavaScript on every first load.
 * Our tooltips sit in fixed places (below their trigger), so no collision handling is needed.
 */
const TooltipContext = createContext<{ delay: number; skipDelay: number; lastClosed: { at: number } }>({
  delay: TOOLTIP_DELAY_MS,
  skipDelay: TOOLTIP_SKIP_DELAY_MS,
  lastClosed: { at: 0 },
});

export function TooltipProvider({ children }: { children: ReactNode }) {
  const [value] = useState(() => ({ delay: TOOLTIP_DELAY_MS, skipDelay: TOOLTIP_SKIP_DELAY_MS, lastClosed: { at: 0 } }));
  return <TooltipContext.Provider value={value}>{children}</TooltipContext.Provider>;
}

/**
 * Shows `content` below the child on hover or keyboard focus (not on touch), hides it on leave,
 * blur, Escape or a click. `align` start/end keep it inside the screen for triggers at an edge.
 */
export function Tooltip({
  content,
  children,
  align = 'center',
}: {
  content: ReactNode;
  children: ReactElement<{ 'aria-describedby'?: string }>;
  align?: 'start' | 'center' | 'end';
}) {
  const { delay, skipDelay, lastClosed } = useContext(TooltipContext);
  const [open, setOpenState] = useState(false);
  const isOpen = useRef(false);
  const setOpen = (v: boolean) => {
    isOpen.current = v;
    setOpenState(v);
  };
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = () => {
    clearTimeout(timer.current);
    const wait = Date.now() - lastClosed.at < skipDelay ? 0 : delay;
    timer.current = setTimeout(() => setOpen(true), wait);
  };
  const hide = () => {
    clearTimeout(timer.current);
    // noted at once: the next trigger's pointerenter comes before React renders
    if (isOpen.current) lastClosed.at = Date.now();
    setOpen(false);
  };

  // Escape dismisses it wherever the focus is (a hovered trigger need not have focus)
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && hide();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  return (
    <span
      className="relative inline-flex"
      onPointerEnter={(e) => e.pointerType !== 'touch' && show()}
      onPointerLeave={hide}
      onFocus={(e) => e.target.matches(':focus-visible') && show()}
      onBlur={hide}
      onPointerDown={hide}
    >
      {cloneElement(children, { 'aria-describedby': open ? id : undefined })}
      {open ? (
        <span
          role="tooltip"
          id={id}
          className={cn(
            'pointer-events-none absolute top-full z-50 mt-1.5 whitespace-nowrap rounded-md border border-border bg-card px-3 py-1.5 text-xs text-card-foreground shadow-md',
            align === 'end' ? 'right-0' : align === 'start' ? 'left-0' : 'left-1/2 -translate-x-1/2',
          )}
        >
          {content}
        </span>
      ) : null}
    </span>
  );
}
