-- Congress of Vienna bots' shared library: trading cards. The order of cards to trade away
-- (18.4.5.4; the bots of 20 and 21 trade by letters too): D before C, then the smallest
-- value with the bot's own penalty, then the smallest DRM; and a hand's cards of one nation
-- with a C or D letter, lowest first.

local cards = include("rules/cards.lua")

local trade = {}

local LETTER_RANK = cards.LETTER_RANK

local function field(ctx, card, name)
  return ctx:known("card", card, name) and ctx.data.cards[card].fields[name] or nil
end

-- `list` sorted lowest first by `power`'s letters: D before C, then the smallest value with
-- the penalty of `holder` (the bot whose cards they are; `power` if not given), then the
-- smallest DRM, then the id.
function trade.order(ctx, list, power, holder)
  holder = holder or power
  table.sort(list, function(a, b)
    local la = LETTER_RANK[cards.known_letter(ctx, a, power)]
    local lb = LETTER_RANK[cards.known_letter(ctx, b, power)]
    if la ~= lb then
      return la < lb
    end
    local va = (field(ctx, a, "value") or 0) + ((field(ctx, a, "penalties") or {})[holder] or 0)
    local vb = (field(ctx, b, "value") or 0) + ((field(ctx, b, "penalties") or {})[holder] or 0)
    if va ~= vb then
      return va < vb
    end
    local da, db = math.abs(field(ctx, a, "drm") or 0), math.abs(field(ctx, b, "drm") or 0)
    if da ~= db then
      return da < db
    end
    return a < b
  end)
  return list
end

-- `holder`'s cards of `nation` whose letter for `power` is C or D, lowest first.
function trade.low_cards(ctx, holder, nation, power)
  local list = {}
  for _, card in ipairs(cards.hand(ctx, holder)) do
    local l = cards.known_letter(ctx, card, power)
    if field(ctx, card, "nation") == nation and (l == "C" or l == "D") then
      list[#list + 1] = card
    end
  end
  return trade.order(ctx, list, power, holder)
end

return trade
