-- Napoleon: Aftermath, the Napoleon card and track ("Napoleon Card"): the marker moves one
-- space; tokens are added to or removed from the circle as the space says, each power's
-- tokens kept together in its coalition; when Napoleon returns the three armies leave the
-- board; at Waterloo a victor is drawn from the Great Power cards set aside.

local board = include("rules/board.lua")

local napoleon = {}

--- The space after the marker's, or nil at the end of the track.
local function next_space(ctx)
  local _, here = ctx:space_of("marker.napoleon")
  local spaces = ctx.data.places.napoleon_track.spaces
  for i, space in ipairs(spaces) do
    if space.id == here then
      return spaces[i + 1]
    end
  end
  return nil
end

--- Napoleon's return: all three armies go off to fight him.
function napoleon.armies_leave(ctx)
  for _, power in ipairs(board.ARMY_POWERS) do
    if ctx:space_of("army." .. power) then
      ctx:remove_piece("army." .. power)
    end
  end
  ctx:log("Napoleon returns: the three armies leave the board to fight him.")
end

--- Waterloo: one of the three set-aside Great Power cards, drawn at random, is the victor;
--- it is shown, and that power adds two tokens to its coalition (this module's
--- reconstruction of what the victor gains).
function napoleon.waterloo(ctx)
  if ctx:count("powers.aside") == 0 then
    ctx:log("Waterloo: no Great Power card is left to draw.")
    return
  end
  ctx:shuffle("powers.aside")
  local card = ctx:deal("powers.aside", "revealed", 1)[1]
  ctx:flip(card, true)
  local power = ctx.data.cards[card].fields.power
  local box = board.tokens(ctx, power)
  board.add_tokens(ctx, power, 2, box)
  ctx:log(string.format("Waterloo: %s is drawn as the victor and adds two tokens.", board.name(power)))
end

--- Plays a Napoleon card: moves the marker and carries out the space.
function napoleon.play(ctx)
  local space = next_space(ctx)
  if space == nil then
    ctx:log("The Napoleon marker is already at Waterloo: the card has no effect.")
    return
  end
  ctx:place("marker.napoleon", "napoleon_track", space.id)
  ctx:log("Napoleon: the marker moves to " .. space.name .. ".")
  for _, power in ipairs(board.POWERS) do
    local change = space.props.tokens[power]
    if change ~= nil and change > 0 then
      board.add_tokens(ctx, power, change, board.tokens(ctx, power))
      ctx:log(string.format("%s adds %d token(s).", board.name(power), change))
    elseif change ~= nil and change < 0 then
      board.remove_tokens(ctx, power, -change)
      ctx:log(string.format("%s removes %d token(s).", board.name(power), -change))
    end
  end
  if space.props.event == "return" then
    napoleon.armies_leave(ctx)
  elseif space.props.event == "waterloo" then
    napoleon.waterloo(ctx)
  end
end

return napoleon
