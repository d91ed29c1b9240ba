import type { ReactNode } from 'react';
import { Button } from '../../../components/Button.tsx';
import { Card } from '../../../components/Card.tsx';

/** "Continue with an existing one": one button per record already there, the current pick marked. */
export function ChoiceList<T extends { id: string; name: string }>({
  title,
  items,
  chosenId,
  detail,
  continueLabel,
  onChoose,
}: {
  title: string;
  items: readonly T[];
  chosenId?: string;
  detail?: (item: T) => ReactNode;
  continueLabel: (item: T) => string;
  onChoose: (item: T) => void;
}) {
  if (items.length === 0) return null;
  return (
    <Card title={title}>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium">{item.name}</p>
              {detail && <p className="text-sm text-slate-500 dark:text-slate-400">{detail(item)}</p>}
            </div>
            <Button variant={item.id === chosenId ? 'primary' : 'secondary'} onClick={() => onChoose(item)}>
              {continueLabel(item)}
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
