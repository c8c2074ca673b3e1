<!-- include start from interface/enable-directed-broadcast.xml.i -->
<leafNode name="enable-directed-broadcast">
  <properties>
    <help>Enable directed broadcast forwarding on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
