import { publicProfileUrl } from '#shared/routes';
import type { Profile, UserCard } from '#shared/schemas/profile';
import { QrImage } from '#web/components/qr-image';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { useQrDataUrl } from '#web/lib/qr-data-url';

const DASHBOARD_QR_SIZE = 160;

/** A submitted card's two faces; the back beside the profile's QR code. */
export function CardFaces({ card, profile }: { card: UserCard; profile: Profile }) {
  const qrValue = publicProfileUrl(window.location.origin, profile.id);
  const qrSrc = useQrDataUrl(qrValue, { size: DASHBOARD_QR_SIZE, ecl: 'H' });
  return (
    <Tabs defaultValue="front" className="w-full">
      <TabsList>
        <TabsTrigger value="front">Front</TabsTrigger>
        <TabsTrigger value="back">Back with QR</TabsTrigger>
      </TabsList>
      <TabsContent value="front">
        {card.frontImageUrl ? (
          <img src={card.frontImageUrl} alt="Card front" className="aspect-[7/4] w-full max-w-md rounded-xl object-cover shadow" />
        ) : (
          <div className="flex aspect-[7/4] w-full max-w-md items-center justify-center rounded-xl bg-black text-sm text-neutral-400">Template preview unavailable</div>
        )}
      </TabsContent>
      <TabsContent value="back">
        <div className="flex flex-wrap items-center gap-6">
          {card.backImageUrl ? <img src={card.backImageUrl} alt="Card back" className="aspect-[7/4] w-full max-w-md rounded-xl object-cover shadow" /> : null}
          <QrImage value={qrValue} src={qrSrc} size={DASHBOARD_QR_SIZE} alt="QR code of your public profile" />
        </div>
      </TabsContent>
    </Tabs>
  );
}
