-- Chancery library: card and action helpers shared by modules.
--   local deck = include("@lib/deck.lua")

local M = {}

--- Draws `n` cards from zone `from` into zone `to`. When `from` runs out and a `discard`
--- zone is given, the discard is shuffled into `from` first. Returns the cards drawn
--- (fewer than `n` if both run out).
function M.draw(ctx, from, to, n, discard)
  local drawn = {}
  for _ = 1, n do
    if ctx:count(from) == 0 and discard and ctx:count(discard) > 0 then
      for _, card in ipairs(ctx:zone(discard)) do
        ctx:move_card(card, from)
      end
      ctx:shuffle(from)
      ctx:log(string.format("The discard pile is shuffled into %s.", from))
    end
    if ctx:count(from) == 0 then
      break
    end
    local dealt = ctx:deal(from, to, 1)
    drawn[#drawn + 1] = dealt[1]
  end
  return drawn
end

--- Moves every card of zone `from` to zone `to` (top card first, keeping their order).
function M.move_all(ctx, from, to)
  local cards = ctx:zone(from)
  for i = #cards, 1, -1 do
    ctx:move_card(cards[i], to, "top")
  end
  return cards
end

--- How many cards are in all the zones of the table together.
function M.cards_on_table(ctx)
  local n = 0
  for _, zone in ipairs(ctx.data.zone_ids) do
    n = n + ctx:count(zone)
  end
  return n
end

--- Whether every card of the game is in some zone of the table (for a module's `check`):
--- true, or false and the counts.
function M.all_cards_on_table(ctx)
  local cards = M.cards_on_table(ctx)
  if cards ~= #ctx.data.card_ids then
    return false, string.format("%d cards on the table, %d in the game", cards, #ctx.data.card_ids)
  end
  return true
end

--- The index of the action named `name` (with argument `arg`, if given), or nil.
function M.find_action(actions, name, arg)
  for i, action in ipairs(actions) do
    if action.name == name and (arg == nil or action.arg == arg) then
      return i
    end
  end
  return nil
end

return M
