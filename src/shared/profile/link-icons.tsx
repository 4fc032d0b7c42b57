import type { ReactNode } from 'react';
import { CalendarDays, CirclePlay, CodeXml, ExternalLink, FileText, Globe, Link2, Mail, MessageCircle, Music2, Phone } from 'lucide-react';

/**
 * Icons for a profile's link buttons, drawn for us in the same stroke style as the other icons
 * (24-unit box, 2-unit round strokes, currentColor): the icon set we use has no brand marks, and a
 * LinkedIn or Instagram button with a generic arrow reads as "some link".
 */
interface IconProps {
  size?: number;
  'aria-hidden'?: boolean;
}

function Svg({ size = 18, children, ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" {...rest}>
      {children}
    </svg>
  );
}

function LinkedInIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="3" y="3" width="18" height="18" rx="3" />
      <path d="M8 11v5.5" />
      <circle cx="8" cy="7.6" r="0.4" fill="currentColor" />
      <path d="M12 16.5V11m0 2.4a2.4 2.4 0 0 1 4.8 0v3.1" />
    </Svg>
  );
}

function InstagramIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="3" y="3" width="18" height="18" rx="5.5" />
      <circle cx="12" cy="12" r="4.1" />
      <circle cx="17.1" cy="6.9" r="0.4" fill="currentColor" />
    </Svg>
  );
}

function XIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M4.5 4.5h4.2l10.8 15h-4.2z" />
      <path d="M19.2 4.5l-5.9 6.6M10.6 13l-5.8 6.5" />
    </Svg>
  );
}

function FacebookIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="3" y="3" width="18" height="18" rx="3" />
      <path d="M15.6 7.6h-1.4a2.2 2.2 0 0 0-2.2 2.2V21M9.4 13.1h5.4" />
    </Svg>
  );
}

const ICONS: Record<string, (p: IconProps) => ReactNode> = {
  website: Globe,
  linkedin: LinkedInIcon,
  instagram: InstagramIcon,
  twitter: XIcon,
  facebook: FacebookIcon,
  github: CodeXml,
  // issue 37 (decision 37-03): the further types, from the same icon set (a few hundred bytes each)
  whatsapp: MessageCircle,
  tiktok: Music2,
  youtube: CirclePlay,
  booking: CalendarDays,
  email: Mail,
  phone: Phone,
  pdf: FileText,
  custom: Link2,
};

/** The icon of a link type (a generic arrow for "other" and anything unknown). */
export function LinkIcon({ linkType, ...props }: IconProps & { linkType: string }) {
  const Icon = ICONS[linkType] ?? ExternalLink;
  return <Icon {...props} />;
}
