import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Download, RefreshCw } from 'lucide-react';
import { SAMPLE_CARD } from '#shared/templates/fields';
import type { GeneratedCard, GeneratedSide } from '#shared/schemas/templates';
import { ApiError } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { postGenerateCard } from '#shared/contracts/templates';
import { callEndpoint } from '#web/lib/endpoint';

export const PREVIEW_WIDTH = 350;
export const PREVIEW_HEIGHT = 200;
/** tilt: degrees per pixel away from the centre = 1 / TILT_DIVISOR */
const TILT_DIVISOR = 10;

type State = { status: 'loading' } | { status: 'ready'; card: GeneratedCard } | { status: 'demo' } | { status: 'error' };

function dataUrl(side: GeneratedSide) {
  return `data:${side.mimeType};base64,${side.data}`;
}

function save(side: GeneratedSide) {
  const a = document.createElement('a');
  a.href = dataUrl(side);
  a.download = side.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** The demo card shown when the server says 401: placeholder name and contact details. */
function DemoFace({ back }: { back?: boolean }) {
  return (
    <div className="flex size-full flex-col justify-between rounded-xl bg-black p-5 text-left text-white">
      {back ? (
        <div className="flex size-full items-center justify-center text-sm text-neutral-400">Your QR code goes here</div>
      ) : (
        <>
          <div>
            <p className="text-lg font-semibold">{SAMPLE_CARD.fullName}</p>
            <p className="text-xs text-neutral-300">{SAMPLE_CARD.jobTitle}</p>
          </div>
          <div className="text-[11px] leading-4 text-neutral-300">
            <p>{SAMPLE_CARD.email}</p>
            <p>{SAMPLE_CARD.phoneNumber}</p>
          </div>
        </>
      )}
    </div>
  );
}

/**
 * The two-sided business card built from the user's template and profile (POST /api/generate-card).
 * 350x200, front first; click or Flip Card flips it (0.6 s); the mouse tilts it in 3D (0.1 s);
 * download saves the front, then the back 1 s later.
 */
export function BusinessCardPreview({ templateId, version }: { templateId?: number; version?: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [flipped, setFlipped] = useState(false);
  const [tilt, setTilt] = useState({ x: 0, y: 0 });
  const [nonce, setNonce] = useState(0);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    callEndpoint(postGenerateCard, { body: { ...(templateId ? { templateId } : {}), format: 'jpeg' } })
      .then((card) => live && setState({ status: 'ready', card }))
      .catch((err) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 401) {
          setState({ status: 'demo' });
          toast({ title: 'Demo Preview', description: 'Log in to generate cards with your profile data' });
        } else {
          setState({ status: 'error' });
          toast({ title: 'Generation failed', description: 'Could not generate business card preview. Please try again.', variant: 'destructive' });
        }
      });
    return () => {
      live = false;
    };
  }, [templateId, version, nonce]);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  function onMove(e: MouseEvent<HTMLDivElement>) {
    const r = e.currentTarget.getBoundingClientRect();
    const dx = e.clientX - (r.left + r.width / 2);
    const dy = e.clientY - (r.top + r.height / 2);
    setTilt({ x: -dy / TILT_DIVISOR, y: dx / TILT_DIVISOR });
  }

  function download() {
    if (state.status !== 'ready') {
      toast({ title: 'Download failed', description: 'Could not download business card. Please try again.', variant: 'destructive' });
      return;
    }
    try {
      save(state.card.front);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        try {
          save(state.card.back);
          toast({ title: 'Cards downloaded!', description: 'The front and back of your card were saved.' });
        } catch {
          toast({ title: 'Download failed', description: 'Could not download business card. Please try again.', variant: 'destructive' });
        }
      }, 1000);
    } catch {
      toast({ title: 'Download failed', description: 'Could not download business card. Please try again.', variant: 'destructive' });
    }
  }

  const face = (side: 'front' | 'back') => {
    if (state.status === 'ready') {
      return <img src={dataUrl(state.card[side])} alt={`Business card ${side}`} width={PREVIEW_WIDTH} height={PREVIEW_HEIGHT} className="size-full rounded-xl object-cover" draggable={false} />;
    }
    if (state.status === 'demo') return <DemoFace back={side === 'back'} />;
    return (
      <div className="flex size-full items-center justify-center rounded-xl bg-black text-sm text-neutral-400">Template preview unavailable</div>
    );
  };

  return (
    <div className="flex flex-col items-center gap-4">
      {state.status === 'loading' ? (
        <Skeleton className="w-full rounded-xl" style={{ maxWidth: PREVIEW_WIDTH, aspectRatio: `${PREVIEW_WIDTH} / ${PREVIEW_HEIGHT}` }} data-testid="card-preview-loading" />
      ) : (
        // the card's own ratio at any width: a fixed height cropped it on a phone (issue 37)
        <div
          className="w-full"
          style={{ maxWidth: PREVIEW_WIDTH, aspectRatio: `${PREVIEW_WIDTH} / ${PREVIEW_HEIGHT}`, perspective: 1000 }}
          onMouseMove={onMove}
          onMouseLeave={() => setTilt({ x: 0, y: 0 })}
        >
          <div
            className="size-full"
            style={{ transform: `rotateX(${tilt.x}deg) rotateY(${tilt.y}deg)`, transition: 'transform 0.1s', transformStyle: 'preserve-3d' }}
          >
            <button
              type="button"
              aria-label={flipped ? 'Business card, back side. Flip to front' : 'Business card, front side. Flip to back'}
              data-testid="card-flip"
              data-side={flipped ? 'back' : 'front'}
              onClick={() => setFlipped((f) => !f)}
              className="relative block size-full cursor-pointer rounded-xl shadow-xl"
              style={{ transformStyle: 'preserve-3d', transition: 'transform 0.6s', transform: flipped ? 'rotateY(180deg)' : 'none' }}
            >
              <span className="absolute inset-0" style={{ backfaceVisibility: 'hidden' }}>
                {face('front')}
              </span>
              <span className="absolute inset-0" style={{ backfaceVisibility: 'hidden', transform: 'rotateY(180deg)' }}>
                {face('back')}
              </span>
            </button>
          </div>
        </div>
      )}
      <div className="flex flex-wrap justify-center gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => setFlipped((f) => !f)} disabled={state.status === 'loading'}>
          <RefreshCw aria-hidden="true" />
          Flip Card
        </Button>
        <Button type="button" size="sm" onClick={download} disabled={state.status !== 'ready'}>
          <Download aria-hidden="true" />
          Download Card
        </Button>
        {state.status === 'error' ? (
          <Button type="button" variant="ghost" size="sm" onClick={() => setNonce((n) => n + 1)}>
            Try again
          </Button>
        ) : null}
      </div>
    </div>
  );
}
