import { type CardListFilters, CardFilterDrawer } from '@shared/ui/cards';

/** How many filters are set (shown on the search icon). */
export const filterCount = (f: CardListFilters) =>
  Object.values(f).filter((v) => v !== undefined && v !== '').length - (f.start_date && f.end_date ? 1 : 0);

interface Props {
  open: boolean;
  onClose(): void;
  value: CardListFilters;
  onApply(f: CardListFilters): void;
}

/**
 * The 'Search Cards' panel ('Filter Cards'). Its form is mounted with the panel (the drawer's own),
 * so it starts from the filters in force.
 */
export function CardFilters({ open, onClose, value, onApply }: Props) {
  return (
    <CardFilterDrawer
      variant="customer"
      open={open}
      onClose={onClose}
      formProps={{ initialValues: value }}
      onFinish={({ created_by: _, ...v }) => onApply({ ...v, search: v.search?.trim() || undefined })}
      onReset={() => {
        onApply({});
        onClose();
      }}
    />
  );
}
