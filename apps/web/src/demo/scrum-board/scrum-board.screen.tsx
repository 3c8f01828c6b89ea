import { useState } from 'react';
import Avatar from '@mui/material/Avatar';
import AvatarGroup from '@mui/material/AvatarGroup';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { Link, useParams } from 'react-router';
import { LABELS, PEOPLE } from '../fake-api/data';
import type { ScrumBoard, ScrumCard, ScrumList } from '../fake-api/state';
import { DemoPage, initials, postJson, useDemoMutation, useDemoQuery } from '../ui';

function Boards() {
  const { data = [] } = useDemoQuery<{ id: string; title: string; cards: number }[]>('/api/scrum-board/all-board');
  return (
    <DemoPage>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
        {data.map((board) => (
          <Card key={board.id} variant="outlined">
            <CardActionArea component={Link} to={`/scrum-board/${board.id}`}>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {board.title}
                </Typography>
                <Typography color="text.secondary">{board.cards} tarjetas</Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </DemoPage>
  );
}

type Move =
  | { kind: 'reorder'; listId: string; startIndex: number; endIndex: number }
  | { kind: 'move'; sourcelistId: string; destinationlistId: string; source: number; destination: number };

function CardItem({
  card,
  index,
  list,
  lists,
  onMove,
}: {
  card: ScrumCard;
  index: number;
  list: ScrumList;
  lists: ScrumList[];
  onMove: (move: Move) => void;
}) {
  const position = lists.findIndex((candidate) => candidate.id === list.id);
  const neighbour = (step: number) => lists[position + step];
  const moveTo = (target: ScrumList | undefined) =>
    target &&
    onMove({ kind: 'move', sourcelistId: list.id, destinationlistId: target.id, source: index, destination: target.cardList.length });
  return (
    <Card variant="outlined" aria-label={card.title}>
      <CardContent sx={{ pb: '8px !important' }}>
        {card.labels.length > 0 && (
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mb: 1 }}>
            {card.labels.map((id) => {
              const label = LABELS.find((candidate) => candidate.id === id);
              return label && <Chip key={id} size="small" label={label.title} color={label.color} />;
            })}
          </Box>
        )}
        <Typography>{card.title}</Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: 1 }}>
          <AvatarGroup max={3} sx={{ '& .MuiAvatar-root': { width: 24, height: 24, fontSize: 11 } }}>
            {card.members.map((id) => (
              <Avatar key={id}>{initials(PEOPLE.find((person) => person.id === id)?.name ?? '?')}</Avatar>
            ))}
          </AvatarGroup>
          <Box>
            <IconButton
              size="small"
              aria-label={`Subir ${card.title}`}
              disabled={index === 0}
              onClick={() => onMove({ kind: 'reorder', listId: list.id, startIndex: index, endIndex: index - 1 })}
            >
              <ArrowUpward fontSize="inherit" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`Bajar ${card.title}`}
              disabled={index === list.cardList.length - 1}
              onClick={() => onMove({ kind: 'reorder', listId: list.id, startIndex: index, endIndex: index + 1 })}
            >
              <ArrowDownward fontSize="inherit" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`Mover ${card.title} a la izquierda`}
              disabled={!neighbour(-1)}
              onClick={() => moveTo(neighbour(-1))}
            >
              <ChevronLeft fontSize="inherit" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`Mover ${card.title} a la derecha`}
              disabled={!neighbour(1)}
              onClick={() => moveTo(neighbour(1))}
            >
              <ChevronRight fontSize="inherit" />
            </IconButton>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}

function AddCard({ onAdd }: { onAdd: (title: string) => void }) {
  const [title, setTitle] = useState('');
  return (
    <Box
      component="form"
      onSubmit={(event) => (event.preventDefault(), title.trim() && (onAdd(title.trim()), setTitle('')))}
      sx={{ display: 'flex', gap: 1 }}
    >
      <TextField size="small" label="Nueva tarjeta" value={title} onChange={(event) => setTitle(event.target.value)} />
      <Button type="submit">Agregar</Button>
    </Box>
  );
}

function Board() {
  const { id = '' } = useParams();
  const path = `/api/scrum-board/${id}`;
  const { data: board } = useDemoQuery<ScrumBoard>(path);
  const move = useDemoMutation(path, (change: Move) =>
    change.kind === 'reorder'
      ? postJson<ScrumBoard>('/api/scrum-board/reorder-card', {
          boardId: id,
          listId: change.listId,
          startIndex: change.startIndex,
          endIndex: change.endIndex,
        })
      : postJson<ScrumBoard>('/api/scrum-board/move-card', {
          boardId: id,
          sourcelistId: change.sourcelistId,
          destinationlistId: change.destinationlistId,
          source: change.source,
          destination: change.destination,
        }),
  );
  const add = useDemoMutation(path, ({ listId, title }: { listId: string; title: string }) =>
    postJson<ScrumBoard>('/api/scrum-board/add-card', { boardId: id, listId, title }),
  );
  return (
    <DemoPage>
      {board && (
        <>
          <Typography variant="h6" component="h2">
            {board.title}
          </Typography>
          <Box
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: `repeat(${board.lists.length}, minmax(240px, 1fr))`, overflowX: 'auto' }}
          >
            {board.lists.map((list) => (
              <Paper
                key={list.id}
                variant="outlined"
                component="section"
                aria-label={list.title}
                sx={{ p: 1.5, display: 'grid', gap: 1, alignContent: 'start', bgcolor: 'background.default' }}
              >
                <Typography sx={{ fontWeight: 600 }}>
                  {list.title} ({list.cardList.length})
                </Typography>
                {list.cardList.map((card, index) => (
                  <CardItem
                    key={card.id}
                    card={card}
                    index={index}
                    list={list}
                    lists={board.lists}
                    onMove={(change) => move.mutate(change)}
                  />
                ))}
                <AddCard onAdd={(title) => add.mutate({ listId: list.id, title })} />
              </Paper>
            ))}
          </Box>
        </>
      )}
    </DemoPage>
  );
}

export const screens = { boards: Boards, board: Board };
