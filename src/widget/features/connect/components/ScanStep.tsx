import { useState } from 'react';
import type { Transport } from '../../../../contract/channels.ts';
import { useWords } from '../../../lib/i18n.ts';
import type { QrView } from '../store/panel.ts';
import { phoneApps } from '../store/words.ts';
import { flowWords } from './flow-words.ts';
import { PairingCode } from './PairingCode.tsx';

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
    <div className="gw-connect-scan">
      <div className="gw-connect-qr">
        {qr.kind === 'live' ? (
          <img className="gw-connect-qr__image" src={qr.code} alt={w.qrAlt(app)} width={264} height={264} />
        ) : (
          <p className="gw-connect-qr__waiting" role="status">
            {w.gettingCode}
          </p>
        )}
      </div>
      <div className="gw-connect-scan__how">
        <ol className="gw-connect-steps">
          {w.scanSteps(app).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="gw-connect-note">{w.renewed}</p>
        {pairingCode && (
          <button type="button" className="gw-connect-button" onClick={() => setByPhone(true)}>
            {w.byPhone}
          </button>
        )}
      </div>
    </div>
  );
}
