import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import type { Transport } from '../../../../contract/channels.ts';
import { useWords } from '@/lib/i18n.ts';
import type { QrView } from '../store/panel.ts';
import { phoneApps } from '../store/words.ts';
import { flowWords } from './flow-words.ts';
import { PairingCode } from './PairingCode.tsx';
import { buttonClass } from '@/components/ui/Button.tsx';

interface Props {
  transport: Transport;
  qr: QrView;
  pairingCode: boolean;
  pairing: { code: string; phone: string } | null;
  onPairing(phone: string): Promise<void>;
}

/** The QR to scan, replaced live as the messenger renews it; for whatsapp, a pairing code instead. */
export function ScanStep({ transport, qr, pairingCode, pairing, onPairing }: Props) {
  const [byPhone, setByPhone] = useState(pairing !== null);
  const w = useWords(flowWords);
  const app = phoneApps[transport];
  if (pairingCode && byPhone) return <PairingCode pairing={pairing} onRequest={onPairing} onBack={() => setByPhone(false)} />;

  return (
    <div className="flex w-full flex-wrap items-start gap-4">
      <div className="grid aspect-square w-full max-w-[282px] place-items-center rounded-[10px] border border-line bg-white p-2 text-[#4f5b68]">
        {qr.kind === 'live' && qr.content ? (
          // Drawn from its content: sharp at any size and zoom.
          <QRCodeSVG value={qr.content} size={264} marginSize={0} title={w.qrAlt(app)} role="img" aria-label={w.qrAlt(app)} className="block h-auto w-full" />
        ) : qr.kind === 'live' ? (
          <img className="block h-auto w-full [image-rendering:pixelated]" src={qr.code} alt={w.qrAlt(app)} width={264} height={264} />
        ) : (
          <p className="m-0" role="status">
            {w.gettingCode}
          </p>
        )}
      </div>
      <div className="grid flex-[1_1_220px] justify-items-start gap-3">
        <ol className="m-0 grid list-decimal gap-1 pl-5">
          {w.scanSteps(app).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="m-0 text-muted">{w.renewed(app)}</p>
        {pairingCode && (
          <button type="button" className={buttonClass()} onClick={() => setByPhone(true)}>
            {w.byPhone}
          </button>
        )}
      </div>
    </div>
  );
}
