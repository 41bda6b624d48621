import { useState } from 'react';
import type { Transport } from '../../../../contract/channels.ts';
import type { QrView } from '../store/panel.ts';
import { phoneApps } from '../store/words.ts';
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
  const app = phoneApps[transport] ?? 'the messenger';
  if (pairingCode && byPhone) return <PairingCode pairing={pairing} onRequest={onPairing} onBack={() => setByPhone(false)} />;

  return (
    <div className="gw-connect-scan">
      <div className="gw-connect-qr">
        {qr.kind === 'live' ? (
          <img className="gw-connect-qr__image" src={qr.code} alt={`QR code to scan with ${app}`} width={264} height={264} />
        ) : (
          <p className="gw-connect-qr__waiting" role="status">
            Getting the code…
          </p>
        )}
      </div>
      <div className="gw-connect-scan__how">
        <ol className="gw-connect-steps">
          <li>Open {app} on the phone with the account to connect.</li>
          <li>Go to its linked devices and choose to link a new device.</li>
          <li>Point the phone at this code. This screen updates by itself.</li>
        </ol>
        <p className="gw-connect-note">The code is renewed about every 20 seconds.</p>
        {pairingCode && (
          <button type="button" className="gw-connect-button" onClick={() => setByPhone(true)}>
            Link with phone number instead
          </button>
        )}
      </div>
    </div>
  );
}
