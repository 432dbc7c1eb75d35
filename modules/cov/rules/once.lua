-- Congress of Vienna: answers read once. The module's data never changes while its VM lives
-- (a simulation's VM plays game after game), so what the rules and bots read of it again
-- and again (a card's fields, a block's owner) is worked out once for each key and kept.

local once = {}

--- A function of (ctx, key) that gives `read(ctx, key)`: read the first time a key is
--- asked for, then the kept answer (false is kept too; nil is read again).
function once.per_key(read)
  local kept = {}
  return function(ctx, key)
    local answer = kept[key]
    if answer == nil then
      answer = read(ctx, key)
      kept[key] = answer
    end
    return answer
  end
end

return once
